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
    /// The no-show policy: her record, her cases, her appeal (``WebRiderActions+Standing``).
    let standing: NoShowStanding
    let time: any TimeSource
    /// Ride pages kept for riders (nil: none): a rider's web write drops theirs before it
    /// answers, as the API's does (``WebSignedIn``), so an ended session is never answered from memory.
    var pages: RiderReadCache<ByteBuffer>? = nil
    /// Where a rider's van is (nil: not shown).
    var eta: ETAService? = nil
    /// Her standing series: shown, edited, held, resumed (``WebRiderActions+Series``; nil: none).
    var series: SeriesService? = nil

    var now: Date { time.now }
    var timeZone: TimeZone { calendar.timeZone }

    /// What the rider of `ride` may see of her van on the road now (``ETAService/rider(_:now:)``).
    func vanETA(_ ride: Ride) async throws -> RiderETA? {
        try await eta?.rider(ride, now: now)
    }

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

    /// Checks a form's request by the booking rules `POST /v1/rides` uses.
    func check(_ request: BookingRequest, for netID: NetID, places: [Place]) throws(InvalidFields) -> CheckedBooking {
        try booking.check(request, for: netID, places: places, now: now)
    }

    /// The width of the promised pickup (or arrival) window: the scheduler's setting
    /// (`vanadmin scheduler set --window`).
    func promiseWindow() async throws -> TimeInterval {
        TimeInterval(try await calendar.settings().windowMinutes * 60)
    }

    /// Books one ride or a standing series (each occurrence on its own merits); with `willCall`,
    /// the ride's way back waits for her call, starting there.
    func book(_ rides: [NewRide], bookedBy: String? = nil, willCall: RideEndpoint? = nil) async throws -> [BookingOutcome] {
        try await booking.bookSeries(rides, now: now, bookedBy: bookedBy, willCall: willCall)
    }

    /// Books a ride there and its way back, both or neither, once per `key` when given.
    func bookTrip(_ there: NewRide, _ back: NewRide, key: IdempotencyKey?, bookedBy: String? = nil) async throws -> IdempotentTrip {
        guard let key else { return .fresh(try await booking.bookTrip(there, back, now: now, bookedBy: bookedBy)) }
        return try await booking.bookTrip(there, back, now: now, idempotencyKey: key, bookedBy: bookedBy)
    }

    /// Books as ``book(_:)`` once per `key`: the same form sent again gets what the first made.
    /// A dispatcher booking for a rider names herself as `bookedBy` (the audit log and the ride's events).
    func book(_ rides: [NewRide], key: IdempotencyKey, bookedBy: String? = nil, willCall: RideEndpoint? = nil) async throws -> IdempotentBooking {
        try await booking.bookSeries(rides, now: now, idempotencyKey: key, bookedBy: bookedBy, willCall: willCall)
    }

    /// Keeps what the first sending of a form was told, for the same form sent again.
    func recordAnswer(_ answer: String, for key: IdempotencyKey) async throws {
        try await booking.recordAnswer(answer, for: key)
    }

    /// Every known place, by name (for the place pickers).
    func allPlaces() async throws -> [Place] {
        try await places.list()
    }

    // MARK: The rider's rides

    /// Rides still to come that hold a van (waiting for approval or approved), soonest first.
    func upcoming(_ netID: NetID, limit: Int = 20) async throws -> [Ride] {
        try await rides.list(netID, scope: .upcoming, now: now, limit: limit, holdingVan: true).rides
    }

    /// Rides whose pickup is still to come but that no longer hold a van (cancelled, not approved), soonest first.
    func calledOff(_ netID: NetID, limit: Int = 10) async throws -> [Ride] {
        try await rides.list(netID, scope: .upcoming, now: now, limit: limit, holdingVan: false).rides
    }

    func past(_ netID: NetID, limit: Int = 10) async throws -> [Ride] {
        try await rides.list(netID, scope: .past, now: now, limit: limit).rides
    }

    func ride(_ id: UUID, of netID: NetID) async throws -> Ride? {
        try await rides.find(id, for: netID)
    }

    /// Why the rider may not cancel `ride` now (``RidePolicy``), or nil when she may.
    func cancelRefusal(_ ride: Ride) async throws -> RidePolicy.Refusal? {
        try await rides.cancelRefusal(ride, now: now)
    }

    /// Throws ``RiderRides/CancelError``. `withReturn` cancels the way back booked with it too.
    func cancel(_ id: UUID, of netID: NetID, withReturn: Bool = false) async throws -> RiderRides.Cancellation {
        try await rides.cancel(id, for: netID, now: now, lateWithin: settings.policy.lateCancellation, withReturn: withReturn)
    }

    /// The way back booked with her ride `id`.
    func wayBack(of id: UUID, for netID: NetID) async throws -> Ride? {
        try await rides.wayBack(of: id, for: netID)
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

    // MARK: The no-show policy

    /// Her record and her cases now (``NoShowStanding/standing(_:now:)``).
    func riderStanding(_ netID: NetID) async throws -> RiderStanding {
        try await standing.standing(netID.rawValue, now: now)
    }

    /// What her booking forms say before she fills them in: her suspension now or to come, with
    /// its dates and, while she may, the last day to appeal; nil when none.
    func suspensionAhead(_ netID: NetID) async throws -> String? {
        guard let s = try await standing.suspensionAhead(netID.rawValue, now: now) else { return nil }
        let clock = ServiceTime(timeZone: calendar.timeZone)
        let today = LocalDate(containing: now, in: clock.timeZone)
        var text =
            "Under the no-show policy your rides \(today >= s.startsOn ? "are" : "will be") suspended \(s.periodWords(clock)); "
            + "a ride on those days cannot be booked."
        if s.canAppeal(on: today) { text += " You may appeal until \(Suspension.day(s.appealBy, clock)), which puts it on hold." }
        return text
    }

    /// Files her own appeal of the open notice; throws ``StandingError`` (`.text`,
    /// `.nothingToAppeal`, `.appealClosed`) and changes nothing then.
    func appeal(_ netID: NetID, text: String) async throws {
        try await standing.appeal(netID.rawValue, text: text, filedBy: netID.rawValue, now: now)
    }

    /// How many cases are open today (riders under notice, on hold or in effect): the count
    /// beside the console's "Appeals".
    func openCaseCount() async throws -> Int {
        try await standing.cases(openOnly: true, now: now).count
    }

    // MARK: Service information

    /// The same figures as `GET /v1/service`.
    func serviceWeek() async throws -> ServiceWeek {
        try await calendar.week(from: now)
    }
}
