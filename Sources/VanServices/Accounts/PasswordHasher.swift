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
    /// checked against a dummy hash of the same cost and the answer is always false. A password
    /// longer than bcrypt reads (``PasswordPolicy/isCheckable(_:)``) costs the same check and
    /// never matches: bcrypt would compare only its first 72 bytes.
    public func verify(_ password: String, against hash: String?) async throws -> Bool {
        let checkable = PasswordPolicy.isCheckable(password)
        return try await threads.runIfActive { [self] in
            guard let hash else {
                let dummy = self.dummy()
                self.record(dummy)
                _ = Bcrypt.verify(password, hash: dummy)
                return false
            }
            self.record(hash)
            return Bcrypt.verify(password, hash: hash) && checkable
        }
    }

    /// Computes the dummy hash now, so the first unknown net ID is not answered slower than the rest.
    public func warmUp() async throws {
        try await threads.runIfActive { [self] in _ = self.dummy() }
    }

    /// How many bcrypt checks ran so far, by cost: what logins paid, counted rather than timed,
    /// so a test can tell an unknown net ID from a wrong password without a stopwatch. One entry
    /// per cost, however many logins.
    public var checksByCost: [Int: Int] { checked.withLock { $0 } }

    /// Counts a check against a modular-crypt bcrypt hash (`$2b$12$…`) at its cost; -1 if unreadable.
    private func record(_ hash: String) {
        let parts = hash.split(separator: "$", omittingEmptySubsequences: true)
        let cost = parts.count >= 2 ? Int(parts[1]) ?? -1 : -1
        checked.withLock { $0[cost, default: 0] += 1 }
    }

    /// Runs on a hasher thread.
    private func dummy() -> String {
        if let existing = Self.dummyHashes.withLock({ $0[cost] }) { return existing }
        let made = Bcrypt.hash(TemporaryPassword.generate(), cost: UInt8(cost))
        return Self.dummyHashes.withLock { hashes in
            if let stored = hashes[cost] { return stored }
            hashes[cost] = made
            return made
        }
    }
}
