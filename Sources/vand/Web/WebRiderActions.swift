import Foundation
import NIOCore
import VanDomain
import VanServices
import VanScheduler
import VanPostgres

/// Every call the web app makes into the application services, in one place (so a change
/// of those services' API is one file to follow). No SQL here: only the public services.
struct WebRiderActions: Sendable {
    let accounts: AccountService
    let booking: BookingService
    let rides: RiderRides
    let inbox: Inbox
    let calendar: ServiceCalendarStore
    let places: PlaceStore
    let settings: BookingSettings
    let time: any TimeSource
    /// Ride pages kept for riders (nil: none): a rider's web write drops theirs before it
    /// answers, as the API's does (``WebSignedIn``), so an ended session is never answered from memory.
    var pages: RiderReadCache<ByteBuffer>? = nil

    var now: Date { time.now }
    var timeZone: TimeZone { calendar.timeZone }

    // MARK: Accounts

    /// Signs in; throws ``AccountError`` (wrong password, locked out, …).
    func signIn(netID: String, password: String, from client: ClientAddress) async throws -> AccountService.Login {
        try await accounts.login(netID: netID, password: password, from: client)
    }

    /// The session a cookie's token belongs to, or nil when it is unknown, expired or revoked.
    func session(token: String) async throws -> AuthenticatedSession? {
        do {
            return try await accounts.authenticate(token: token)
        } catch AccountError.notAuthenticated {
            return nil
        }
    }

    /// Ends `session`, and drops what the read cache keeps for its rider before answering.
    func signOut(_ session: AuthenticatedSession) async throws {
        try await accounts.logout(session)
        pages?.changed(session.netID)
    }

    /// Throws ``AccountError`` (`.invalid` names the field `current` or `new`).
    func changePassword(_ session: AuthenticatedSession, current: String, new: String, from client: ClientAddress) async throws {
        try await accounts.changePassword(session, current: current, new: new, from: client)
    }

    func profile(_ netID: NetID) async throws -> AccountService.Profile {
        try await accounts.profile(netID)
    }

    /// Sets (or, with nil, clears) both contact details.
    func updateContact(_ netID: NetID, phone: PhoneNumber?, email: EmailAddress?) async throws -> AccountService.Profile {
        try await accounts.updateContact(netID, phone: .some(phone), email: .some(email))
    }

    // MARK: Booking

    /// Whether the rider may book today, and the places to match against.
    func bookingContext(_ netID: NetID) async throws -> (eligibility: Eligibility, places: [Place]) {
        try await booking.requestContext(for: netID, today: LocalDate(containing: now, in: timeZone))
    }

    /// Books one ride or a standing series (each occurrence on its own merits).
    func book(_ rides: [NewRide]) async throws -> [BookingOutcome] {
        try await booking.bookSeries(rides, now: now)
    }

    /// Every known place, by name (for the place pickers).
    func allPlaces() async throws -> [Place] {
        try await places.list()
    }

    // MARK: The rider's rides

    func upcoming(_ netID: NetID, limit: Int = 20) async throws -> [Ride] {
        try await rides.list(netID, scope: .upcoming, now: now, limit: limit).rides
    }

    func past(_ netID: NetID, limit: Int = 10) async throws -> [Ride] {
        try await rides.list(netID, scope: .past, now: now, limit: limit).rides
    }

    func ride(_ id: UUID, of netID: NetID) async throws -> Ride? {
        try await rides.find(id, for: netID)
    }

    /// Throws ``RiderRides/CancelError``.
    func cancel(_ id: UUID, of netID: NetID) async throws -> RiderRides.Cancellation {
        try await rides.cancel(id, for: netID, now: now, lateWithin: settings.policy.lateCancellation)
    }

    /// How many rides of the series were cancelled (0: none left to cancel).
    func cancelSeries(_ id: UUID, of netID: NetID) async throws -> Int {
        try await rides.cancelSeries(id, for: netID, now: now, lateWithin: settings.policy.lateCancellation)
    }

    // MARK: Notifications

    /// The rider's notifications after `after`, oldest first (all of them, page by page).
    func notifications(_ netID: NetID, after: Int64 = 0) async throws -> [InboxNotification] {
        var all: [InboxNotification] = []
        var cursor = after
        while true {
            let page = try await inbox.list(netID.rawValue, after: cursor, limit: 200)
            all += page
            guard page.count == 200, let last = page.last else { return all }
            cursor = last.id
        }
    }

    // MARK: Service information

    /// This week's hours from today, whether the van runs now, and the next opening.
    struct ServiceWeek: Sendable {
        struct Day: Sendable {
            let start: Date
            let closedReason: String?
            let open: [DateInterval]
        }
        let days: [Day]
        let openNow: Bool
        let nextOpening: Date?
    }

    /// The same figures as `GET /v1/service`.
    func serviceWeek() async throws -> ServiceWeek {
        let now = self.now
        let zone = timeZone
        let scheduler = try await calendar.scheduler(around: now)
        var closures: [LocalDate: String] = [:]
        for closure in try await calendar.closures(from: LocalDate(containing: now, in: zone)) where closures[closure.day] == nil {
            closures[closure.day] = closure.reason ?? "closed"
        }
        var days: [ServiceWeek.Day] = []
        var day = LocalDate(containing: now, in: zone)
        for _ in 0..<7 {
            let interval = day.interval(in: zone)
            let open = closures[day] == nil ? scheduler.hours.openIntervals(from: interval.start, to: interval.end) : []
            days.append(.init(start: interval.start, closedReason: closures[day], open: open))
            day = LocalDate(containing: interval.end.addingTimeInterval(1), in: zone)
        }
        let openNow = closures[LocalDate(containing: now, in: zone)] == nil && scheduler.hours.isOpen(at: now)
        var next: Date? = openNow ? nil : days.flatMap(\.open).map(\.start).first { $0 > now }
        var probe = day.interval(in: zone).start
        for _ in 0..<366 where !openNow && next == nil {
            guard let candidate = scheduler.hours.nextOpening(after: probe) else { break }
            let candidateDay = LocalDate(containing: candidate, in: zone)
            if closures[candidateDay] == nil { next = candidate } else { probe = candidateDay.interval(in: zone).end }
        }
        return ServiceWeek(days: days, openNow: openNow, nextOpening: next)
    }
}
