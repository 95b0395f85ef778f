import HummingbirdBcrypt
import VanDomain
import NIOCore
import NIOPosix
import Synchronization

/// bcrypt hashing on its own threads.
///
/// A hash at cost 12 keeps a core busy for a quarter of a second or more; on
/// Swift's cooperative pool (one thread per core) a few concurrent logins would
/// stall every other request. So hashing runs on a dedicated ``NIOThreadPool``,
/// which also bounds how many cores bcrypt can take at once.
public final class PasswordHasher: Sendable {
    /// log2 of the bcrypt rounds.
    public let cost: Int
    private let threads: NIOThreadPool
    /// Per cost, a hash of a random string: verifying against it costs as much as a real check,
    /// so an unknown net ID is answered as slowly as a wrong password. Shared by every hasher
    /// of the process, so warming one up warms them all.
    private static let dummyHashes = Mutex<[Int: String]>([:])
    /// How many bcrypt checks this hasher ran, by cost (log2 rounds, read from the hash itself).
    private let checked = Mutex<[Int: Int]>([:])

    /// The process-wide bcrypt threads, one per core; started on first use and never stopped.
    public static let sharedThreads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(1, System.coreCount))
        pool.start()
        return pool
    }()

    /// Creates a hasher at `cost` (4…31).
    public init(cost: Int, threads: NIOThreadPool = PasswordHasher.sharedThreads) {
        precondition((4...31).contains(cost), "bcrypt cost must be 4 to 31")
        self.cost = cost
        self.threads = threads
    }

    /// A new salted hash of `password`.
    public func hash(_ password: String) async throws -> String {
        let cost = UInt8(cost)
        return try await threads.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` matches `hash`. With `hash` nil (no such account) the password is
    /// checked against a dummy hash of this hasher's cost and the answer is always false. A
    /// password longer than bcrypt reads (``PasswordPolicy/isCheckable(_:)``) costs the same check
    /// and never matches: bcrypt would compare only its first 72 bytes.
    ///
    /// A hash made at a lower cost than this hasher's (before `VAND_BCRYPT_COST` was raised)
    /// checks faster than an unknown net ID. A wrong password for it also pays dummy checks at
    /// each cost from the hash's up to this one's: 2^made + (2^made + … + 2^(cost−1)) = 2^cost
    /// rounds, what the unknown net ID pays, so the answer's time does not tell that the account
    /// exists. A right one is re-hashed by the sign-in (``needsRehash(_:)``).
    public func verify(_ password: String, against hash: String?) async throws -> Bool {
        let checkable = PasswordPolicy.isCheckable(password)
        return try await threads.runIfActive { [self] in
            guard let hash else {
                self.checkDummy(password, cost: self.cost)
                return false
            }
            self.record(hash)
            let matches = Bcrypt.verify(password, hash: hash) && checkable
            if !matches, let made = Self.cost(of: hash), (4..<self.cost).contains(made) {
                for cost in made..<self.cost { self.checkDummy(password, cost: cost) }
            }
            return matches
        }
    }

    /// Whether `hash` was made at another cost than this hasher's: a password that matched it
    /// is hashed again at this cost when it signs in.
    public func needsRehash(_ hash: String) -> Bool {
        Self.cost(of: hash) != cost
    }

    /// The cost a modular-crypt bcrypt hash (`$2b$12$…`) was made at; nil if unreadable.
    public static func cost(of hash: String) -> Int? {
        let parts = hash.split(separator: "$", omittingEmptySubsequences: true)
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    /// Runs on a hasher thread: a check that costs what a real one at `cost` does, and matches nothing.
    private func checkDummy(_ password: String, cost: Int) {
        let dummy = self.dummy(cost: cost)
        record(dummy)
        _ = Bcrypt.verify(password, hash: dummy)
    }

    /// Computes the dummy hash now, so the first unknown net ID is not answered slower than the rest.
    public func warmUp() async throws {
        try await threads.runIfActive { [self] in _ = self.dummy(cost: self.cost) }
    }

    /// How many bcrypt checks ran so far, by cost: what logins paid, counted rather than timed,
    /// so a test can tell an unknown net ID from a wrong password without a stopwatch. One entry
    /// per cost, however many logins.
    public var checksByCost: [Int: Int] { checked.withLock { $0 } }

    /// Counts a check against a modular-crypt bcrypt hash (`$2b$12$…`) at its cost; -1 if unreadable.
    private func record(_ hash: String) {
        let cost = Self.cost(of: hash) ?? -1
        checked.withLock { $0[cost, default: 0] += 1 }
    }

    /// Runs on a hasher thread: the process's dummy hash at `cost`.
    private func dummy(cost: Int) -> String {
        if let existing = Self.dummyHashes.withLock({ $0[cost] }) { return existing }
        let made = Bcrypt.hash(TemporaryPassword.generate(), cost: UInt8(cost))
        return Self.dummyHashes.withLock { hashes in
            if let stored = hashes[cost] { return stored }
            hashes[cost] = made
            return made
        }
    }
}
