import Foundation
import Hummingbird
import VanDomain
import VanServices
import VanScheduler

/// Public information, no login needed (someone who cannot log in still needs the hotline):
/// - `GET /v1/service` → hotline, forms, this week's hours, open now or the next opening, closures
/// - `GET /v1/places?q=` (search by name or alias) or `?near=lat,lon` (nearest first, with meters)
/// - `GET /v1/availability?date=YYYY-MM-DD&wheelchair=true|false` → free intervals to start a ride
struct ServiceRoutes: Sendable {
    let calendar: ServiceCalendarStore
    let places: PlaceStore
    let booking: BookingService
    let settings: BookingSettings
    let hotline: String?
    let clock: ServiceTime
    let time: any TimeSource

    func register(on router: Router<AppRequestContext>) {
        router.get("v1/service", use: service)
        router.get("v1/places", use: searchPlaces)
        router.get("v1/availability", use: availability)
    }

    struct Interval: Encodable, Sendable {
        let from: String
        let to: String
    }

    struct ServiceView: Encodable, Sendable {
        struct Day: Encodable, Sendable {
            let date: String
            let weekday: String
            let closed: String?
            let open: [Interval]
        }
        let hotline: String?
        let forms: String?
        let timeZone: String
        let openNow: Bool
        let nextOpening: String?
        let week: [Day]
        let bookingHorizonDays: Int

        enum CodingKeys: String, CodingKey {
            case hotline, forms, timeZone = "time_zone", openNow = "open_now", nextOpening = "next_opening", week
            case bookingHorizonDays = "booking_horizon_days"
        }
    }

    @Sendable func service(_ request: Request, context: AppRequestContext) async throws -> Response {
        let zone = clock.timeZone
        let service = try await calendar.week(from: time.now)
        let week = service.days.map { day in
            ServiceView.Day(
                date: day.date.description, weekday: clock.text(day.start, .weekday), closed: day.closedReason,
                open: day.open.map { Interval(from: clock.format($0.start), to: clock.format($0.end)) })
        }
        let openNow = service.openNow, next = service.nextOpening
        let view = ServiceView(
            hotline: hotline, forms: settings.formsURL, timeZone: zone.identifier, openNow: openNow,
            nextOpening: next.map(clock.format), week: week, bookingHorizonDays: Int(settings.policy.horizon / 86_400))
        return try context.responseEncoder.encode(view, from: request, context: context)
    }

    struct PlaceView: Encodable, Sendable {
        let id: Int64?
        let name: String
        let aliases: [String]
        let lat: Double
        let lon: Double
        let distanceM: Int?
        enum CodingKeys: String, CodingKey { case id, name, aliases, lat, lon, distanceM = "distance_m" }
    }

    @Sendable func searchPlaces(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let views: [PlaceView]
        // Code points, as JSON Schema's maxLength counts them (not grapheme clusters); checked even when near wins.
        guard (query["q"]?.unicodeScalars.count ?? 0) <= 100 else {
            throw InvalidFields([ValidationError(field: "q", reason: "is longer than 100 characters")])
        }
        if let near = query["near"] {
            guard let point = Self.coordinate(near) else {
                throw InvalidFields([ValidationError(field: "near", reason: "must be lat,lon such as 41.3163,-72.9224")])
            }
            views = try await places.nearest(to: point, limit: 10).map { place, meters in
                PlaceView(
                    id: place.id, name: place.name, aliases: place.aliases, lat: place.coordinate.latitude, lon: place.coordinate.longitude,
                    distanceM: Int(meters.rounded()))
            }
        } else {
            let text = query["q"].map(String.init) ?? ""
            views = try await places.search(text).map { place in
                PlaceView(
                    id: place.id, name: place.name, aliases: place.aliases, lat: place.coordinate.latitude, lon: place.coordinate.longitude,
                    distanceM: nil)
            }
        }
        return try context.responseEncoder.encode(views, from: request, context: context)
    }

    /// `lat,lon` in plain decimal degrees, exactly the `near` pattern of openapi.yaml (latitude -90…90,
    /// longitude -180…180, no exponent, no `+`, no spaces); nil for anything else.
    static func coordinate(_ text: Substring) -> Coordinate? {
        guard text.wholeMatch(of: #/-?(90(\.0+)?|[1-8]?[0-9](\.[0-9]+)?),-?(180(\.0+)?|(1[0-7][0-9]|[1-9]?[0-9])(\.[0-9]+)?)/#) != nil else {
            return nil
        }
        let parts = text.split(separator: ",")
        guard let lat = Double(parts[0]), let lon = Double(parts[1]) else { return nil }
        return try? Coordinate(latitude: lat, longitude: lon)
    }

    struct AvailabilityView: Encodable, Sendable {
        let date: String
        let wheelchair: Bool
        let timeZone: String
        let free: [Interval]
        enum CodingKeys: String, CodingKey { case date, wheelchair, timeZone = "time_zone", free }
    }

    @Sendable func availability(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        var problems: [ValidationError] = []
        var day: LocalDate?
        do { day = try LocalDate(query["date"].map(String.init) ?? "", field: "date") } catch { problems.append(error) }
        var wheelchair = false
        switch query["wheelchair"] {
        case nil, "false": wheelchair = false
        case "true": wheelchair = true
        default: problems.append(ValidationError(field: "wheelchair", reason: "must be true or false"))
        }
        guard problems.isEmpty, let day else { throw InvalidFields(problems) }
        let now = time.now
        let horizonEnd = LocalDate(containing: now.addingTimeInterval(settings.policy.horizon), in: clock.timeZone)
        if day < LocalDate(containing: now, in: clock.timeZone) || day > horizonEnd {
            throw InvalidFields([ValidationError(field: "date", reason: "must be from today to \(horizonEnd)")])
        }
        let free = try await booking.availability(on: day, wheelchair: wheelchair)
            .compactMap { interval -> Interval? in
                let start = max(interval.start, now)
                return start <= interval.end ? Interval(from: clock.format(start), to: clock.format(interval.end)) : nil
            }
        return try context.responseEncoder.encode(
            AvailabilityView(date: day.description, wheelchair: wheelchair, timeZone: clock.timeZone.identifier, free: free), from: request,
            context: context)
    }
}
