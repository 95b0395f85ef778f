import Foundation
import VanDomain
import VanPostgres

/// Finds riders by what a caller on the phone says: a net ID or part of a name. Riders only
/// (rider accounts, and whitelist entries of people with no staff account), never drivers or
/// dispatchers; each with whether she may book today (the whitelist, as ``BookingService``
/// checks it).
public struct RiderDirectory: Sendable {
    let pool: PGPool

    /// A directory over `pool`.
    public init(pool: PGPool) { self.pool = pool }

    /// The most riders one search lists; more matches ask for a longer search.
    public static let maxResults = 20
    /// The longest search text read (longer is cut).
    public static let maxSearchLength = 64

    /// One rider found.
    public struct Listing: Sendable, Equatable {
        /// Her net ID.
        public let netID: NetID
        /// Her name, from her account or else the whitelist.
        public let name: String?
        /// Her phone number, from her account.
        public let phone: String?
        /// Whether she has an account (rides are booked on an account).
        public let hasAccount: Bool
        /// Whether her account is disabled (she cannot sign in).
        public let disabled: Bool
        /// Whether the whitelist lists her at all.
        public let whitelisted: Bool
        /// Her whitelist entry's last day, if it has one.
        public let validUntil: LocalDate?
        /// Whether she may be booked for today: an account that is not disabled, and a whitelist
        /// entry still valid. (A disabled rider could neither see the ride nor cancel it.)
        public let cleared: Bool

        /// Why she may not be booked for today, in a sentence; nil when she may.
        public var notClearedReason: String? {
            if !whitelisted { return "Not on the whitelist: the disabilities office clears riders (vanadmin whitelist add)." }
            if disabled { return "Her account is disabled: she could not see or cancel the ride. Enable it first (vanadmin riders enable)." }
            if !cleared, hasAccount, let validUntil { return "Her clearance on the whitelist ended on \(validUntil)." }
            if !hasAccount { return "On the whitelist, but no account yet: invite her first (vanadmin riders invite)." }
            return nil
        }
    }

    /// Riders whose net ID or name contains `text` (case-insensitive, as typed: no wildcards),
    /// an exact net ID first, then by name; at most ``maxResults`` + 1 (one more says "more").
    public func find(_ text: String, today: LocalDate) async throws -> [Listing] {
        let needle = String(text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(Self.maxSearchLength)).lowercased()
        guard !needle.isEmpty else { return [] }
        let limit = Self.maxResults + 1
        return try await pool.withConnection { conn in
            try conn.query(
                """
                WITH found AS (
                    SELECT net_id FROM riders
                    WHERE role = 'rider' AND (strpos(lower(net_id), \(needle)) > 0 OR strpos(lower(coalesce(name, '')), \(needle)) > 0)
                    UNION
                    SELECT w.net_id FROM whitelist w
                    WHERE (strpos(lower(w.net_id), \(needle)) > 0 OR strpos(lower(coalesce(w.name, '')), \(needle)) > 0)
                      AND NOT EXISTS (SELECT 1 FROM riders s WHERE s.net_id = w.net_id AND s.role <> 'rider')
                )
                SELECT f.net_id, coalesce(r.name, w.name) AS name, r.phone, r.net_id IS NOT NULL AS has_account,
                       coalesce(r.disabled, false) AS disabled, w.net_id IS NOT NULL AS whitelisted, w.valid_until::text AS valid_until
                FROM found f LEFT JOIN riders r ON r.net_id = f.net_id LEFT JOIN whitelist w ON w.net_id = f.net_id
                ORDER BY f.net_id = \(needle) DESC, lower(coalesce(r.name, w.name, f.net_id)), f.net_id
                LIMIT \(limit)
                """
            ).map { row in
                let validUntil = try row.decode(String?.self, "valid_until").flatMap { try? LocalDate($0) }
                let hasAccount = try row.decode(Bool.self, "has_account")
                let whitelisted = try row.decode(Bool.self, "whitelisted")
                let disabled = try row.decode(Bool.self, "disabled")
                return Listing(
                    netID: try NetID(try row.decode(String.self, "net_id")), name: try row.decode(String?.self, "name"),
                    phone: try row.decode(String?.self, "phone"), hasAccount: hasAccount, disabled: disabled,
                    whitelisted: whitelisted, validUntil: validUntil,
                    cleared: hasAccount && !disabled && whitelisted && (validUntil.map { $0 >= today } ?? true))
            }
        }
    }

    /// The rider with `netID` (a rider account, or a whitelist entry with no staff account), or nil.
    public func rider(_ netID: NetID, today: LocalDate) async throws -> Listing? {
        try await find(netID.rawValue, today: today).first { $0.netID == netID }
    }
}
