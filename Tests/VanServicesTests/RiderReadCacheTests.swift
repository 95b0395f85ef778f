import Foundation
import Testing
import VanDomain
@testable import VanServices

/// The read cache's rules, without a database: what is kept, when it stops being answered,
/// and that a store racing a change never keeps the older answer (checked against a model
/// over random interleavings).
@Suite("Rider read cache")
struct RiderReadCacheTests {
    typealias Cache = RiderReadCache<String>
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let key = Cache.PageKey(limit: 20, after: nil)

    static func session(_ netID: String, digest: UInt8 = 1, lastSeen: Date = t0, expires: Date = t0 + 86_400, mustChange: Bool = false)
        -> AuthenticatedSession
    {
        AuthenticatedSession(
            netID: try! NetID(netID), digest: Data([digest]), mustChangePassword: mustChange, expiresAt: expires, lastSeenAt: lastSeen)
    }

    static func listening(budget: Int = 1 << 20) -> Cache {
        let cache = Cache(budget: budget)
        cache.listening()
        return cache
    }

    @Test func keepsNothingUntilListeningAndNothingOnceLost() {
        let cache = Cache(budget: 1 << 20)
        let ann = Self.session("ann1")
        cache.store(ann, key: Self.key, value: "page", bytes: 4, validUntil: nil, now: Self.t0, ticket: cache.ticket())
        #expect(cache.lookup(digest: ann.digest, key: Self.key, now: Self.t0) == nil)
        cache.listening()
        cache.store(ann, key: Self.key, value: "page", bytes: 4, validUntil: nil, now: Self.t0, ticket: cache.ticket())
        #expect(cache.lookup(digest: ann.digest, key: Self.key, now: Self.t0)?.value == "page")
        #expect(cache.lookup(digest: ann.digest, key: Self.key, now: Self.t0)?.session == ann)
        cache.lost()
        #expect(cache.lookup(digest: ann.digest, key: Self.key, now: Self.t0) == nil)
        cache.store(ann, key: Self.key, value: "page", bytes: 4, validUntil: nil, now: Self.t0, ticket: cache.ticket())
        #expect(cache.bytesKept == 0)
        // Listening again: what was kept before the loss is gone (it may have missed changes).
        cache.listening()
        #expect(cache.lookup(digest: ann.digest, key: Self.key, now: Self.t0) == nil)
    }

    @Test func aStoreThatRacedAChangeOfItsRiderIsRefused() {
        let cache = Self.listening()
        let ann = Self.session("ann1"), bob = Self.session("bob2", digest: 2)
        let before = cache.ticket()
        cache.changed(ann.netID)
        cache.store(ann, key: Self.key, value: "read before the change", bytes: 21, validUntil: nil, now: Self.t0, ticket: before)
        #expect(cache.lookup(digest: ann.digest, key: Self.key, now: Self.t0) == nil)
        // Another rider's change does not refuse it.
        cache.store(bob, key: Self.key, value: "bob's", bytes: 5, validUntil: nil, now: Self.t0, ticket: before)
        #expect(cache.lookup(digest: bob.digest, key: Self.key, now: Self.t0)?.value == "bob's")
        // A change drops what was kept, sessions included.
        cache.changed(bob.netID)
        #expect(cache.lookup(digest: bob.digest, key: Self.key, now: Self.t0) == nil)
        #expect(cache.bytesKept == 0)
    }

    @Test func answersOnlyWhileTheDatabaseWouldAnswerTheSame() {
        let cache = Self.listening()
        let pickup = Self.t0 + 600
        let ann = Self.session("ann1", lastSeen: Self.t0 - 20, expires: Self.t0 + 30)
        cache.store(ann, key: Self.key, value: "p", bytes: 1, validUntil: pickup, now: Self.t0, ticket: cache.ticket())
        #expect(cache.lookup(digest: ann.digest, key: Self.key, now: Self.t0 + 29.9) != nil)
        // The session ends: the database would refuse it.
        #expect(cache.lookup(digest: ann.digest, key: Self.key, now: Self.t0 + 30) == nil)
        // The database would slide the session 60 s after it was last seen: that check is its own.
        let bob = Self.session("bob2", digest: 2, lastSeen: Self.t0 - 20)
        cache.store(bob, key: Self.key, value: "p", bytes: 1, validUntil: pickup, now: Self.t0, ticket: cache.ticket())
        #expect(cache.lookup(digest: bob.digest, key: Self.key, now: Self.t0 + 39.9) != nil)
        #expect(cache.lookup(digest: bob.digest, key: Self.key, now: Self.t0 + 40) == nil)
        // The first ride's pickup takes it off the upcoming page.
        let cat = Self.session("cat3", digest: 3, lastSeen: Self.t0 + 590)
        cache.store(cat, key: Self.key, value: "p", bytes: 1, validUntil: pickup, now: Self.t0 + 590, ticket: cache.ticket())
        #expect(cache.lookup(digest: cat.digest, key: Self.key, now: pickup - 0.001) != nil)
        #expect(cache.lookup(digest: cat.digest, key: Self.key, now: pickup) == nil)
        // Never past maxAge, notified or not; and only the page asked for.
        let dee = Self.session("dee4", digest: 4, lastSeen: Self.t0 + 50)
        cache.store(dee, key: Self.key, value: "p", bytes: 1, validUntil: nil, now: Self.t0, ticket: cache.ticket())
        #expect(cache.lookup(digest: dee.digest, key: Self.key, now: Self.t0 + cache.maxAge - 0.1) != nil)
        #expect(cache.lookup(digest: dee.digest, key: Self.key, now: Self.t0 + cache.maxAge) == nil)
        #expect(cache.lookup(digest: dee.digest, key: Cache.PageKey(limit: 50, after: nil), now: Self.t0) == nil)
    }

    @Test func aSessionThatMustChangeItsPasswordIsNeverKept() {
        let cache = Self.listening()
        let temporary = Self.session("ann1", mustChange: true)
        cache.store(temporary, key: Self.key, value: "p", bytes: 1, validUntil: nil, now: Self.t0, ticket: cache.ticket())
        #expect(cache.lookup(digest: temporary.digest, key: Self.key, now: Self.t0) == nil)
        #expect(cache.bytesKept == 0)
    }

    @Test func staysWithinItsBudgetAndAForgottenRiderStillRefusesARacingStore() throws {
        let cache = Cache(budget: 100, maxRiders: 5)
        cache.listening()
        let ann = Self.session("ann1")
        let early = cache.ticket()
        cache.changed(ann.netID)  // ann's entry now only remembers when she changed
        for i in 0..<20 {
            let session = AuthenticatedSession(
                netID: try NetID("r\(i)x"), digest: Data([UInt8(100 + i)]), mustChangePassword: false,
                expiresAt: Self.t0 + 600, lastSeenAt: Self.t0)
            cache.store(session, key: Self.key, value: "p", bytes: 30, validUntil: nil, now: Self.t0, ticket: cache.ticket())
            #expect(cache.bytesKept <= 100)
            #expect(cache.lookup(digest: session.digest, key: Self.key, now: Self.t0)?.value == "p")
        }
        #expect(cache.bytesKept == 90)
        // Ann's entry was forgotten to keep the count of riders down; the change it remembered still counts.
        cache.store(ann, key: Self.key, value: "read before her change", bytes: 5, validUntil: nil, now: Self.t0, ticket: early)
        #expect(cache.lookup(digest: ann.digest, key: Self.key, now: Self.t0) == nil)
        // A value larger than the whole budget is not kept at all.
        cache.store(ann, key: Self.key, value: "huge", bytes: 101, validUntil: nil, now: Self.t0, ticket: cache.ticket())
        #expect(cache.lookup(digest: ann.digest, key: Self.key, now: Self.t0) == nil)
        cache.store(ann, key: Self.key, value: "fits", bytes: 10, validUntil: nil, now: Self.t0, ticket: cache.ticket())
        #expect(cache.lookup(digest: ann.digest, key: Self.key, now: Self.t0)?.value == "fits")
    }

    /// Random interleavings of reads (ticket, then store), changes, sign-outs, losses and
    /// listening, for three riders: an answer is always a value read after the rider's last change
    /// and after the last time listening began, i.e. what the database holds now, and never for a
    /// session that ended. A sign-out on this node drops its rider before it answers (the API's
    /// and the web's writes do), while its notification may come later or not yet; a read that
    /// checked the session before the sign-out and stores after it is refused.
    @Test(arguments: 0..<20) func neverAnswersWhatAChangeMadeOld(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let cache = Cache(budget: 96)
        let riders = try ["ann1", "bob2", "cat3"].map { try NetID($0) }
        var version = [0, 0, 0]  // the database's state of each rider
        var generation = [0, 0, 0]  // each rider's live session: digest [rider, generation]; older ones ended
        var listeningSince: Int? = nil
        var step = 0
        var reads: [(rider: Int, generation: Int, ticket: Cache.Ticket, version: Int, listeningSince: Int?)] = []
        var answered = 0, refusedEnded = 0
        for _ in 0..<1_000 {
            step += 1
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<25:  // a read begins: the session checked, the ticket, then the database's current state
                let rider = Int.random(in: 0..<3, using: &random)
                reads.append((rider, generation[rider], cache.ticket(), version[rider], listeningSince))
            case 25..<50 where !reads.isEmpty:  // a read ends and stores what it read
                let read = reads.remove(at: Int.random(in: 0..<reads.count, using: &random))
                let session = AuthenticatedSession(
                    netID: riders[read.rider], digest: Data([UInt8(read.rider), UInt8(read.generation)]),
                    mustChangePassword: false, expiresAt: Self.t0 + 600, lastSeenAt: Self.t0)
                cache.store(
                    session, key: Self.key, value: "\(read.rider):\(read.version)", bytes: 8 + Int.random(in: 0..<20, using: &random),
                    validUntil: nil, now: Self.t0, ticket: read.ticket)
            case 50..<60:  // a write commits; its notification arrives (or not yet: next case)
                let rider = Int.random(in: 0..<3, using: &random)
                version[rider] += 1
                cache.changed(riders[rider])
            case 60..<67:  // a sign-out here: the session ends, and this node drops the rider before answering
                let rider = Int.random(in: 0..<3, using: &random)
                generation[rider] += 1
                cache.changed(riders[rider])
            case 67..<71:
                cache.lost()
                listeningSince = nil
            case 71..<75:
                cache.listening()
                listeningSince = step
            default:  // a lookup, with the live session or the one signed out last
                let rider = Int.random(in: 0..<3, using: &random)
                let asked = max(0, generation[rider] - Int.random(in: 0...1, using: &random))
                if let hit = cache.lookup(digest: Data([UInt8(rider), UInt8(asked)]), key: Self.key, now: Self.t0) {
                    answered += 1
                    #expect(hit.value == "\(rider):\(version[rider])", "seed \(seed), step \(step)")
                    #expect(asked == generation[rider], "seed \(seed), step \(step): a signed-out session was answered")
                    #expect(listeningSince != nil)
                } else if asked < generation[rider] {
                    refusedEnded += 1
                }
            }
            #expect(cache.bytesKept <= 96)
        }
        #expect(answered > 0, "seed \(seed): no lookup was answered, so nothing was checked")
        #expect(refusedEnded > 0, "seed \(seed): no signed-out session was asked for")
    }
}
