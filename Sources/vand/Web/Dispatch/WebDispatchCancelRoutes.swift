import Foundation
import Hummingbird
import VanDomain
import VanServices

/// Cancelling a ride from its page (`POST /dispatch/rides/{ref}/cancel`), for one of two
/// reasons a dispatcher hears on the phone: the rider asks (her own cancellation, made for her:
/// late within the hour before pickup, as hers would be), or the service cannot drive it (a
/// reason she is told, as `vanadmin rides cancel`). Either is audited with the dispatcher's name.
extension WebDispatchBoardRoutes {
    /// Who cancels, as the form says it.
    enum Canceller: String {
        case rider, service
    }

    @Sendable func cancel(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let actions = console.dispatch
        let current = try await ride(context), ref = current.ref
        let form = try await console.pages.form(request)
        let values = ["who": String(form["who"].prefix(20)), "reason": String(form["reason"].prefix(500))]
        func refuse(_ field: String, _ message: String, _ status: HTTPResponse.Status) async throws -> Response {
            try await ridePage(request, context, ref: ref, values: values, errors: [.init(field: field, message: message)], status: status)
        }
        guard let who = Canceller(rawValue: values["who"]!) else {
            return try await refuse("who", "Choose who cancels: the rider, or the service", .unprocessableContent)
        }
        let reason = values["reason"]!.trimmingCharacters(in: .whitespacesAndNewlines)
        let actor = try await actions.actor(session)
        switch who {
        case .rider:
            do {
                _ = try await actions.cancelForRider(current, actor: actor)
            } catch RiderRides.CancelError.onBoard {
                return try await refuse("who", "This ride cannot be cancelled: the rider is on board; the driver's drop-off ends it", .conflict)
            } catch let error as RiderRides.CancelError {
                return try await refuse("who", "This ride cannot be cancelled: \(error.description)", .conflict)
            }
        case .service:
            guard !reason.isEmpty else {
                return try await refuse("reason", "Enter the reason the rider is told, like \u{201C}Van 2 broke down\u{201D}", .unprocessableContent)
            }
            do {
                _ = try await actions.dispatch.cancel(ref.rawValue, reason: reason, actor: actor, now: actions.now)
            } catch DispatchService.DispatchError.reasonTooLong(let count) {
                return try await refuse(
                    "reason", "Shorten the reason to \(DispatchService.reasonLimit) characters (it has \(count)); the rider reads it whole",
                    .unprocessableContent)
            } catch let error as DispatchService.DispatchError {
                return try await refuse("who", "This ride cannot be cancelled: \(error.description)", .conflict)
            } catch let error as ValidationError {
                return try await refuse("reason", error.reason, .unprocessableContent)
            }
        }
        throw WebAnswer.redirect(Self.ridePath(ref) + "?done=cancelled")
    }
}

extension WebDispatchActions {
    /// Cancels `ride` as its rider asked on the phone: her own cancellation (late within
    /// `VAND_LATE_CANCEL_MINUTES` of pickup, as hers is), made by `actor`.
    func cancelForRider(_ ride: Ride, actor: String) async throws -> RiderRides.Cancellation {
        try await rides.cancel(ride.id, for: ride.netID, now: now, lateWithin: settings.policy.lateCancellation, onBehalfBy: actor)
    }
}

extension WebDispatchRideView {
    /// The cancel form's values: offered while the ride still holds a van, its pickup is to come
    /// and the rider is not on board; `who` is what was chosen (kept when the form comes back
    /// with an error).
    func cancelForm(_ listing: RideQueries.Listing, who: String?, lateWithin: TimeInterval, boarded: Bool) -> [String: Any] {
        let ride = listing.ride
        guard ride.status.holdsVan, now < ride.pickupAt, !boarded else { return [:] }
        var values: [String: Any] = [
            "cancellable": true,
            "riderFirst": listing.riderName.flatMap { $0.split(separator: " ").first.map(String.init) } ?? ride.netID.rawValue,
            "whoRider": who == nil || who == WebDispatchBoardRoutes.Canceller.rider.rawValue,
            "whoService": who == WebDispatchBoardRoutes.Canceller.service.rawValue,
        ]
        if ride.pickupAt.timeIntervalSince(now) <= lateWithin { values["lateIfRider"] = true }
        return values
    }
}
