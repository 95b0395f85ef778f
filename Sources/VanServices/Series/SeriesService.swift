import Foundation
import VanDomain
import VanPostgres

/// Standing rides that live a term: a rider's weekly series shown, edited for one date or from a
/// date on, held for a date range and resumed early. Every change is checked like a booking
/// (``BookingService``'s own planning, under her lock and the van-day locks) and nothing changes
/// until she chooses: a check runs the change in a transaction and rolls it back; an apply with
/// her choices commits only when every date it touches fits, else it answers the dates anew and
/// changes nothing. A series never books on a closed day. She hears of each ride changed.
///
/// Every method is scoped to the rider: another rider's series is ``SeriesError/notFound``. The
/// office acting for her (console, vanadmin) names itself as `actor`: its events and audit lines carry it.
public struct SeriesService: Sendable {
    let pool: PGPool
    let booking: BookingService
    let routeChanges: RouteChangeHook

    /// Series over `pool`, booking by `booking`'s rules; after a commit that moved rides,
    /// `routeChanges` hears of each day (the background planner).
    public init(pool: PGPool, booking: BookingService, routeChanges: RouteChangeHook = .none) {
        self.pool = pool
        self.booking = booking
        self.routeChanges = routeChanges
    }

    /// The service time zone.
    public var timeZone: TimeZone { booking.calendar.timeZone }

    // MARK: Reading

    /// `netID`'s series, newest first.
    public func list(for netID: NetID) async throws -> [StandingSeries] {
        let zone = timeZone
        return try await pool.withTransaction { conn in
            try SeriesStore.ids(of: netID, conn).compactMap { try SeriesStore.load($0, netID: netID, timeZone: zone, conn) }
        }
    }

    /// `netID`'s series `id` with its holds and rides.
    /// - Throws: ``SeriesError/notFound`` when she has no such series.
    public func show(_ id: UUID, for netID: NetID, now: Date) async throws -> SeriesDetail {
        let zone = timeZone
        return try await pool.withTransaction { conn in
            guard let series = try SeriesStore.load(id, netID: netID, timeZone: zone, conn) else { throw SeriesError.notFound }
            let today = LocalDate(containing: now, in: zone)
            let closed = try SeriesStore.closures(from: today, to: series.until, conn).filter { series.weekdays.contains($0.key.weekday) }
            return SeriesDetail(series: series, holds: try SeriesStore.holds(id, conn), rides: try SeriesStore.rides(id, conn), closedDays: closed)
        }
    }

    /// Whose series `id` is (the office acts for her); nil when there is none.
    public func owner(of id: UUID) async throws -> NetID? {
        try await pool.withConnection { try SeriesStore.owner(of: id, $0) }
    }

    // MARK: Edits

    /// Checks (`apply` false) or makes an edit of one date or of every date from one on.
    /// - Throws: ``InvalidFields`` naming each bad field, ``SeriesError/notFound``, ``RiderSuspended``.
    public func edit(
        _ id: UUID, for netID: NetID, _ request: SeriesEditRequest, apply: Bool, now: Date, actor: String? = nil
    ) async throws -> SeriesChangeAnswer {
        let zone = timeZone
        let today = LocalDate(containing: now, in: zone)
        var problems: [ValidationError] = []
        var scope: SeriesEdit.Scope?
        switch request.scope?.trimmingCharacters(in: .whitespaces).lowercased() {
        case nil, "": problems.append(ValidationError(field: "scope", reason: "is required: one (that date only) or from (every date from it on)"))
        case let text?:
            scope = SeriesEdit.Scope(rawValue: text)
            if scope == nil { problems.append(ValidationError(field: "scope", reason: "must be one or from")) }
        }
        let date = SeriesFields.date(request.date, field: "date", today: today, problems: &problems)
        let time = SeriesFields.time(request.time, field: "time", problems: &problems)
        var promise: RidePromise.Kind?
        if let text = request.promise?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            promise = RidePromise.Kind(rawValue: text)
            if promise == nil { problems.append(ValidationError(field: "promise", reason: "must be pickup or arrive_by")) }
        }
        let choices = SeriesFields.choices(request.choices, problems: &problems)
        let policy = booking.rules.policy
        let pickupInput = request.pickup.flatMap { Self.given($0) }, dropoffInput = request.dropoff.flatMap { Self.given($0) }
        if problems.isEmpty, time == nil, promise == nil, pickupInput == nil, dropoffInput == nil {
            problems.append(ValidationError(field: "time", reason: "give what changes: time, promise, pickup or dropoff"))
        }
        let checked = problems
        let (askedScope, askedPromise) = (scope, promise)
        let autoApprove = booking.rules.autoApprove
        return try await change(id, netID: netID, apply: apply, now: now, actor: actor, action: "series.edit") { conn, series in
            var problems = checked
            let matcher = PlaceMatcher(places: try PlaceStore.list(conn), policy: policy)
            var pickup: RideEndpoint?, dropoff: RideEndpoint?
            do throws(ValidationError) { pickup = try pickupInput.map { i throws(ValidationError) in try matcher.resolve(i, field: "pickup") } } catch
            {
                problems.append(error)
            }
            do throws(ValidationError) {
                dropoff = try dropoffInput.map { i throws(ValidationError) in try matcher.resolve(i, field: "dropoff") }
            } catch {
                problems.append(error)
            }
            guard problems.isEmpty, let scope = askedScope, let date else { throw InvalidFields(problems) }
            let edit = SeriesEdit(scope: scope, date: date, time: time, promise: askedPromise, pickup: pickup, dropoff: dropoff)
            let template = edit.applied(to: series.template)
            if BookingRules.samePlace(template.pickup, template.dropoff) {
                throw InvalidFields([ValidationError(field: "dropoff", reason: "is where the ride starts; choose where the rider is going")])
            }
            if date > series.until {
                throw InvalidFields([ValidationError(field: "date", reason: "is after the series' last date, \(series.until)")])
            }
            let rides = try SeriesStore.changeable(series.id, now: now, conn).filter {
                edit.covers(LocalDate(containing: $0.promise.asked, in: zone))
            }
            if rides.isEmpty {
                let reason = scope == .one ? "has no upcoming ride of the series to change" : "has no upcoming ride of the series on or after it"
                throw InvalidFields([ValidationError(field: "date", reason: reason)])
            }
            let targets = rides.map { SeriesPlanner.Target(date: LocalDate(containing: $0.promise.asked, in: zone), was: $0) }
            try Self.checkChoices(choices, against: targets.map(\.date))
            let plan = SeriesPlanner(
                series: series, template: template, choices: choices, timeZone: zone, now: now, autoApprove: autoApprove,
                willCallWait: booking.rules.policy.willCallMaxWait, bookedBy: actor)
            let dates = try plan.run(targets, reason: scope == .one ? "changed: this date was edited" : "changed: the series was edited", conn)
            return (dates, scope == .from ? template : nil)
        }
    }

    // MARK: Holds

    /// Holds the series from `from` through `to` (`YYYY-MM-DD`): cancels its upcoming rides in the
    /// range (hers, not late, reason `held: …`) and records the hold.
    /// - Throws: ``InvalidFields`` (`from`, `to`), ``SeriesError/notFound``.
    public func hold(_ id: UUID, for netID: NetID, from: String?, to: String?, now: Date, actor: String? = nil) async throws -> SeriesHoldAnswer {
        let zone = timeZone
        let today = LocalDate(containing: now, in: zone)
        var problems: [ValidationError] = []
        let first = SeriesFields.date(from, field: "from", today: today, problems: &problems)
        let last = SeriesFields.date(to, field: "to", today: today, problems: &problems)
        if let first, let last, last < first { problems.append(ValidationError(field: "to", reason: "is before from; give the last date held")) }
        if let first, let last, last.dayNumber - first.dayNumber > 366 {
            problems.append(ValidationError(field: "to", reason: "is more than a year after from"))
        }
        guard problems.isEmpty, let first, let last else { throw InvalidFields(problems) }
        let answer = try await pool.withTransaction { conn -> SeriesHoldAnswer in
            try BookingService.lockRider(netID, conn)
            if let actor { try TransactionActor.set(actor, conn) }
            guard let series = try SeriesStore.load(id, netID: netID, timeZone: zone, lock: true, conn) else { throw SeriesError.notFound }
            let held = try SeriesStore.changeable(series.id, now: now, conn).filter {
                let day = LocalDate(containing: $0.promise.asked, in: zone)
                return day >= first && day <= last
            }
            guard !held.isEmpty else {
                throw InvalidFields([
                    ValidationError(field: "from", reason: "no upcoming ride of the series falls from \(first) to \(last); nothing to hold")
                ])
            }
            let before = try SeriesStore.lastEventID(conn)
            try SeriesStore.cancel(held, reason: SeriesHold.reason(from: first, to: last), now: now, conn)
            let hold = try SeriesStore.addHold(series.id, from: first, to: last, by: actor ?? netID.rawValue, now: now, conn)
            try SeriesStore.tellRider(held.map(\.id), after: before, conn)
            if let actor {
                try AuditLog.record(
                    conn, actor: actor, action: "series.hold", subject: id.uuidString.lowercased(),
                    details: ["rider": netID.rawValue, "from": first.description, "to": last.description, "rides": String(held.count)])
            }
            let cancelled = try SeriesStore.rides(series.id, conn).filter { ride in held.contains { $0.id == ride.id } }
            return SeriesHoldAnswer(hold: hold, cancelled: cancelled)
        }
        for ride in answer.cancelled { routeChanges.changed(around: ride.pickupAt) }
        return answer
    }

    /// Checks (`apply` false) or makes the early end of hold `holdID`: books the held dates from
    /// now on again from the template, closed days skipped, with her `choices` for dates that do not fit.
    /// - Throws: ``SeriesError`` (no such series or hold, or it is not open), ``InvalidFields`` for a bad choice.
    public func resume(
        _ id: UUID, hold holdID: Int64, for netID: NetID, choices raw: [String: String], apply: Bool, now: Date, actor: String? = nil
    ) async throws -> SeriesChangeAnswer {
        let zone = timeZone
        let today = LocalDate(containing: now, in: zone)
        var problems: [ValidationError] = []
        let choices = SeriesFields.choices(raw, problems: &problems)
        guard problems.isEmpty else { throw InvalidFields(problems) }
        let autoApprove = booking.rules.autoApprove
        return try await change(id, netID: netID, apply: apply, now: now, actor: actor, action: "series.resume") { conn, series in
            guard let hold = try SeriesStore.holds(series.id, conn).first(where: { $0.id == holdID }) else { throw SeriesError.holdNotFound }
            guard hold.isOpen(today: today) else { throw SeriesError.holdNotOpen(id: hold.id, resumed: hold.resumedAt != nil) }
            let live = Set(try SeriesStore.changeable(series.id, now: now, conn).map { LocalDate(containing: $0.promise.asked, in: zone) })
            let targets = series.dates(from: max(hold.from, today), through: hold.to)
                .filter { !live.contains($0) && series.template.asked(on: $0, in: zone) > now }
                .map { SeriesPlanner.Target(date: $0, was: nil) }
            try Self.checkChoices(choices, against: targets.map(\.date))
            let plan = SeriesPlanner(
                series: series, template: series.template, choices: choices, timeZone: zone, now: now, autoApprove: autoApprove,
                willCallWait: booking.rules.policy.willCallMaxWait, bookedBy: actor)
            let dates = try plan.run(targets, reason: "", conn)
            if apply, !dates.contains(where: \.isConflict) { try SeriesStore.resume(hold.id, by: actor ?? netID.rawValue, now: now, conn) }
            return (dates, nil)
        }
    }

    // MARK: The one way a change runs

    /// A change's answer that must not commit: a check, or an apply some date refused.
    private struct Undo: Error { let answer: SeriesChangeAnswer }

    /// Runs `plan` in one transaction under her lock: commits when `apply` and every date fits (or
    /// has her choice), else rolls everything back and answers the dates as they stood.
    private func change(
        _ id: UUID, netID: NetID, apply: Bool, now: Date, actor: String?, action: String,
        plan: @escaping @Sendable (PGConnection, StandingSeries) throws -> (dates: [SeriesDateAnswer], template: SeriesTemplate?)
    ) async throws -> SeriesChangeAnswer {
        let zone = timeZone
        let answer: SeriesChangeAnswer
        do {
            answer = try await pool.withTransaction { conn -> SeriesChangeAnswer in
                // One change of hers at a time, and no booking of hers beside it (the booking's own lock).
                try BookingService.lockRider(netID, conn)
                if let actor { try TransactionActor.set(actor, conn) }
                guard var series = try SeriesStore.load(id, netID: netID, timeZone: zone, lock: true, conn) else { throw SeriesError.notFound }
                let before = try SeriesStore.lastEventID(conn)
                let (dates, template) = try plan(conn, series)
                if let template { series.template = template }
                let fits = !dates.contains(where: \.isConflict)
                guard apply, fits else { throw Undo(answer: SeriesChangeAnswer(applied: false, series: series, dates: dates)) }
                if let template { try SeriesStore.update(series.id, template: template, now: now, conn) }
                var changed: [UUID] = []
                for date in dates {
                    if let was = date.was, !(date.choice == .keep) { changed.append(was.id) }
                    if case .fits(let ride) = date.result { changed.append(ride.id) }
                }
                try SeriesStore.tellRider(changed, after: before, conn)
                if let actor {
                    try AuditLog.record(
                        conn, actor: actor, action: action, subject: id.uuidString.lowercased(),
                        details: ["rider": netID.rawValue, "dates": String(dates.count)])
                }
                return SeriesChangeAnswer(applied: true, series: series, dates: dates)
            }
        } catch let undo as Undo {
            return undo.answer
        }
        for date in answer.dates {
            if let was = date.was, date.choice != .keep { routeChanges.changed(around: was.pickupAt) }
            if case .fits(let ride) = date.result { routeChanges.changed(around: ride.pickupAt) }
        }
        return answer
    }

    /// A choice for a date the change does not touch is refused, naming it.
    private static func checkChoices(_ choices: [LocalDate: SeriesChoice], against dates: [LocalDate]) throws {
        let touched = Set(dates)
        let stray = choices.keys.filter { !touched.contains($0) }.sorted()
        guard stray.isEmpty else {
            throw InvalidFields(stray.map { ValidationError(field: "choices.\($0)", reason: "is not a date this change touches") })
        }
    }

    /// An end given at all (a form's empty fields are no change).
    private static func given(_ input: PlaceMatcher.Input) -> PlaceMatcher.Input? {
        let blank = { (text: String?) in (text ?? "").trimmingCharacters(in: .whitespaces).isEmpty }
        return blank(input.place) && blank(input.address) && input.lat == nil && input.lon == nil ? nil : input
    }
}
