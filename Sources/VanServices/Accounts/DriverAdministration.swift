import Foundation
import VanDomain
import VanPostgres

/// The dispatcher's driver commands: driver accounts sign in on the same page as riders, with
/// a temporary password they change first, and run a van's stops. Each command is audited
/// with `actor`. Drivers are not on the riders' whitelist.
public struct DriverAdministration: Sendable {
    let staff: StaffAccounts
    var riders: RiderAdministration { staff.riders }

    /// Driver commands over the rider administration's pool, hasher, settings and clock.
    public init(riders: RiderAdministration) { staff = StaffAccounts(riders: riders, role: .driver) }

    /// A driver account as the dispatcher lists it.
    public struct Summary: Sendable, Equatable {
        /// The account.
        public let account: Rider
        /// Her open shift, if any.
        public let shift: Shift?
    }

    /// Creates a driver account with a temporary password (shown once).
    /// - Throws: ``AccountError/riderExists(_:)`` when the net ID already has an account.
    public func add(_ netID: NetID, name: String, phone: PhoneNumber? = nil, actor: String) async throws -> Invitation {
        try await staff.add(netID, name: name, phone: phone, actor: actor)
    }

    /// Every driver account, by net ID, with her open shift.
    public func list() async throws -> [Summary] {
        try await riders.pool.withConnection { connection in
            let shifts = Dictionary(uniqueKeysWithValues: try ShiftStore(connection).allOpen().map { ($0.driverNetID, $0) })
            return try staff.list(connection).map { Summary(account: $0, shift: shifts[$0.netID]) }
        }
    }

    /// Disables a driver account: her sessions end at once and her open shift ends. Returns the
    /// ended shift, if there was one.
    /// - Throws: ``AccountError/noSuchRider(_:)`` when `netID` is not a driver account.
    @discardableResult
    public func disable(_ netID: NetID, actor: String) async throws -> Shift? {
        try await staff.disable(netID, actor: actor) { connection, now in
            let shifts = ShiftStore(connection)
            var ended: Shift?
            if let open = try shifts.open(driver: netID), try shifts.end(id: open.id, by: actor, now: now) { ended = try shifts.shift(id: open.id) }
            return (ended, ["shift_ended": ended.map { String($0.id) } ?? "none"])
        }
    }
}
