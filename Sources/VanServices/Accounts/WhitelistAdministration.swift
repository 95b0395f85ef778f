import Foundation
import VanDomain
import VanPostgres

/// What an add or import did to one entry.
public enum WhitelistChange: String, Sendable, Codable {
    /// A new entry.
    case added
    /// An existing entry got different data.
    case updated
    /// The entry already said exactly this.
    case unchanged
}

/// A whitelist entry as listed for the dispatcher.
public struct WhitelistListing: Sendable, Equatable {
    /// The entry.
    public let entry: WhitelistEntry
    /// Whether it still counts today.
    public let isActive: Bool
    /// Whether the person has a rider account.
    public let hasAccount: Bool
}

/// What an import did, for the dispatcher's summary.
public struct WhitelistImportReport: Sendable, Equatable {
    /// New entries.
    public var added: [NetID] = []
    /// Entries whose data changed.
    public var updated: [NetID] = []
    /// Entries deleted because the file (with `replace`) does not list them.
    public var removed: [NetID] = []
    /// Entries the file repeats exactly.
    public var unchanged: [NetID] = []
    /// Accounts created for new entries (with `invite`).
    public var invited: [Invitation] = []
}

/// The dispatcher's whitelist commands. Each one is recorded in the audit log with `actor`.
public struct WhitelistAdministration: Sendable {
    /// Where the whitelist lives.
    public let pool: PGPool
    /// For invitations during an import.
    public let riders: RiderAdministration

    /// Creates the service; it shares the clock and settings of `riders`.
    public init(riders: RiderAdministration) {
        self.pool = riders.pool
        self.riders = riders
    }

    /// Adds an entry, or changes the given fields of an existing one.
    public func add(_ patch: WhitelistPatch, actor: String) async throws -> WhitelistChange {
        let now = riders.clock.now
        return try await pool.withTransaction { connection in
            let store = WhitelistStore(connection)
            let existing = try store.entry(patch.netID)
            let entry = patch.applied(to: existing, actor: actor, now: now)
            let change: WhitelistChange = existing == nil ? .added : entry.sameData(as: existing!) ? .unchanged : .updated
            guard change != .unchanged else { return change }
            try store.upsert(entry)
            try AuditLog.record(
                connection, actor: actor, action: "whitelist.\(change == .added ? "add" : "update")",
                subject: patch.netID.rawValue, details: entry.auditDetails)
            return change
        }
    }

    /// Removes an entry. The rider keeps their account but can no longer book.
    /// - Throws: ``AccountError/notWhitelisted(_:)`` when there is no entry.
    public func remove(_ netID: NetID, actor: String) async throws {
        try await pool.withTransaction { connection in
            guard try WhitelistStore(connection).remove(netID) else { throw AccountError.notWhitelisted(netID) }
            try AuditLog.record(connection, actor: actor, action: "whitelist.remove", subject: netID.rawValue)
        }
    }

    /// Every entry, with whether it is active today and whether the person has an account.
    public func list() async throws -> [WhitelistListing] {
        let today = LocalDate(containing: riders.clock.now, in: riders.timeZone)
        return try await pool.withConnection { connection in
            let entries = try WhitelistStore(connection).all()
            let accounts = try RiderStore(connection).existing(entries.map(\.netID))
            return entries.map { WhitelistListing(entry: $0, isActive: $0.isActive(on: today), hasAccount: accounts.contains($0.netID)) }
        }
    }

    /// Applies a checked file in one transaction: all of it or (on any error) none of it.
    ///
    /// - Parameters:
    ///   - replace: also remove entries the file does not list.
    ///   - invite: create an account with a temporary password for every added entry that has none.
    ///   - source: the file's name, for the audit log.
    ///   - beforeCommit: runs inside the transaction with the invitations (e.g. to write them to a
    ///     file); if it throws, nothing is committed — no account exists whose password was not saved.
    public func importFile(
        _ file: WhitelistFile,
        replace: Bool,
        invite: Bool,
        source: String,
        actor: String,
        beforeCommit: @escaping @Sendable ([Invitation]) throws -> Void = { _ in }
    ) async throws -> WhitelistImportReport {
        let now = riders.clock.now
        let expiresAt = now.addingTimeInterval(riders.settings.temporaryPasswordLifetime)
        // bcrypt is slow and cannot run inside the transaction's synchronous closure: hash ahead for
        // every entry that may turn out new, then use only those that really are.
        var prepared: [NetID: (password: String, hash: String)] = [:]
        if invite {
            let candidates = try await pool.withConnection { connection -> [NetID] in
                let listed = Set(try WhitelistStore(connection).all().map(\.netID))
                let fresh = file.rows.map(\.patch.netID).filter { !listed.contains($0) }
                let accounts = try RiderStore(connection).existing(fresh)
                return fresh.filter { !accounts.contains($0) }
            }
            prepared = try await hashTemporaryPasswords(for: candidates)
        }
        let ready = prepared
        return try await pool.withTransaction { connection in
            let store = WhitelistStore(connection)
            try store.lockForUpdate()
            var current = Dictionary(uniqueKeysWithValues: try store.all().map { ($0.netID, $0) })
            var report = WhitelistImportReport()
            for row in file.rows {
                let netID = row.patch.netID
                let existing = current.removeValue(forKey: netID)
                let entry = row.patch.applied(to: existing, actor: actor, now: now)
                if let existing, entry.sameData(as: existing) {
                    report.unchanged.append(netID)
                    continue
                }
                try store.upsert(entry)
                if existing == nil { report.added.append(netID) } else { report.updated.append(netID) }
            }
            if replace {
                for netID in current.keys.sorted() {
                    try store.remove(netID)
                    report.removed.append(netID)
                }
            }
            func names(_ ids: [NetID]) -> String { ids.map(\.rawValue).joined(separator: ",") }
            try AuditLog.record(
                connection, actor: actor, action: "whitelist.import", subject: nil,
                details: [
                    "source": source, "replace": String(replace), "added": names(report.added), "updated": names(report.updated),
                    "removed": names(report.removed), "unchanged": String(report.unchanged.count),
                ])
            if invite {
                let riderStore = RiderStore(connection)
                for netID in report.added {
                    guard let secret = ready[netID] else { continue }
                    let entry = file.rows.first { $0.patch.netID == netID }.map { $0.patch.applied(to: nil, actor: actor, now: now) }
                    guard
                        try riderStore.insert(
                            netID: netID, name: entry?.name, email: entry?.email,
                            temporaryPasswordHash: secret.hash, expiresAt: expiresAt, now: now)
                    else { continue }
                    try AuditLog.record(
                        connection, actor: actor, action: "rider.invite", subject: netID.rawValue,
                        details: ["temporary_password_expires_at": PGTimestamp.format(expiresAt), "via": "whitelist.import"])
                    report.invited.append(Invitation(netID: netID, temporaryPassword: secret.password, expiresAt: expiresAt))
                }
            }
            try beforeCommit(report.invited)
            return report
        }
    }

    /// Hashes one temporary password per net ID, as many at once as the hasher has threads.
    private func hashTemporaryPasswords(for netIDs: [NetID]) async throws -> [NetID: (password: String, hash: String)] {
        let hasher = riders.hasher
        return try await withThrowingTaskGroup(of: (NetID, String, String).self) { group in
            for netID in netIDs {
                group.addTask {
                    let password = TemporaryPassword.generate()
                    return (netID, password, try await hasher.hash(password))
                }
            }
            var result: [NetID: (password: String, hash: String)] = [:]
            for try await (netID, password, hash) in group { result[netID] = (password, hash) }
            return result
        }
    }
}
