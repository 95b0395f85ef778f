import Foundation
import Hummingbird
import VanDomain
import VanPostgres
import VanServices

extension Problem {
    /// The one table from the errors the services throw to the answers riders get.
    /// Anything not listed is a 500 that reveals nothing (and is logged by the caller).
    init?(_ error: any Error, hotline: String?, now: Date, timeZone: TimeZone) {
        switch error {
        case let problem as Problem: self = problem
        case let error as AccountError: self = .account(error, hotline: hotline, now: now)
        case let error as RoadError: self = .road(error, now: now, clock: ServiceTime(timeZone: timeZone))
        case let error as ValidationError: self = .invalidFields([error])
        case let error as InvalidFields: self = .invalidFields(error.errors)
        case let error as DecodingError: self = .decoding(error)
        case let error as RiderRides.CancelError:
            switch error {
            case .notFound: self = .notFound("There is no such ride among your rides.")
            case .afterPickup, .notCancellable, .onBoard:
                self = Problem(status: .conflict, slug: "not-cancellable", title: "The ride cannot be cancelled", detail: error.description)
            }
        case let error as WillCallError:
            let words = error.sentence(clock: ServiceTime(timeZone: timeZone))
            switch error {
            case .notFound: self = .notFound(words)
            case .noWillCall: self = Problem(status: .conflict, slug: "no-will-call", title: "No way back to call for", detail: words)
            case .closed: self = Problem(status: .conflict, slug: "will-call-closed", title: "The way back was called off", detail: words)
            case .rideThereNotOver:
                self = Problem(status: .conflict, slug: "ride-there-not-over", title: "The ride there is not over yet", detail: words)
            }
        case let error as RiderSuspended:
            self = Problem(status: .forbidden, slug: "suspended", title: "Rides suspended", detail: error.sentence(hotline: hotline))
        case let error as StandingError:
            switch error {
            case .text(let field, let reason): self = .invalidFields([ValidationError(field: field, reason: reason)])
            case .nothingToAppeal, .notAppealed:
                self = Problem(status: .conflict, slug: "nothing-to-appeal", title: "Nothing to appeal", detail: error.description)
            case .appealClosed:
                self = Problem(status: .conflict, slug: "appeal-closed", title: "The time to appeal is over", detail: error.description)
            default: return nil
            }
        case let error as SeriesError:
            switch error {
            case .notFound: self = .notFound("There is no such series among your rides.")
            case .holdNotFound: self = .notFound("The series has no such hold.")
            case .holdNotOpen:
                let words = error.description
                self = Problem(
                    status: .conflict, slug: "hold-not-open", title: "The hold is not open",
                    detail: String(words.prefix(1)).uppercased() + String(words.dropFirst()) + ".")
            }
        case let error as IdempotencyKeyReused:
            self = Problem(status: .unprocessableContent, slug: "idempotency-key-reused", title: "Idempotency-Key reused", detail: error.description)
        case let error as PGError where error.isConnectionProblem: self = .databaseUnavailable()
        case let error as HTTPError:
            if error.status == .notFound { self = .notFound(); return }
            self = Problem(
                status: error.status, slug: "http-\(error.status.code)", title: error.status.reasonPhrase,
                detail: error.body ?? error.status.reasonPhrase)
        default: return nil
        }
    }

    /// The answer to every refusal on the road (shifts, taps, positions), in one place.
    /// A refused road action; its times in the service zone (`allowed_from` with the zone's
    /// offset, as `no_show_from` is written; the detail in words).
    static func road(_ error: RoadError, now: Date, clock: ServiceTime) -> Problem {
        let words = error.sentence(clock)
        let sentence = String(words.prefix(1)).uppercased() + String(words.dropFirst()) + "."
        func problem(_ status: HTTPResponse.Status, _ slug: String, _ title: String) -> Problem {
            Problem(status: status, slug: slug, title: title, detail: sentence)
        }
        switch error {
        case .notADriver: return problem(.forbidden, "not-a-driver", "Not a driver account")
        case .unknownVan:
            return .invalidFields([ValidationError(field: "van", reason: "is not an active van; see GET /v1/driver/shift for the vans")])
        case .vanHasShift, .driverHasShift: return problem(.conflict, "shift-conflict", "Already on shift")
        case .noOpenShift: return problem(.conflict, "no-open-shift", "No open shift")
        case .vanHasNoShift: return problem(.conflict, "no-open-shift", "No open shift")
        case .notOnRun: return problem(.forbidden, "not-on-your-run", "Not on your run")
        case .actionDoesNotFit(let action, let stop):
            return .invalidFields([ValidationError(field: "action", reason: "\(action.rawValue) does not fit a \(stop.rawValue) stop")])
        case .needsEarlier: return problem(.conflict, "tap-out-of-order", "A step before this one is missing")
        case .stopHasOutcome: return problem(.conflict, "stop-has-outcome", "The stop already has an outcome")
        case .rideNotActive: return problem(.conflict, "ride-not-active", "The ride is not approved")
        case .noShowTooEarly(let from):
            var answer = problem(.conflict, "no-show-too-early", "Wait before a no-show")
            answer.headers[.retryAfter] = String(max(1, Int(from.timeIntervalSince(now).rounded(.up))))
            answer.extensions["allowed_from"] = clock.format(from)
            return answer
        case .arrivedAfterWindow: return problem(.conflict, "arrived-after-window", "No no-show after a late arrival")
        case .tapKeyReused: return problem(.unprocessableContent, "tap-key-reused", "tap_key reused")
        case .noSuchTap: return .notFound("There is no such tap of yours.")
        case .shiftEnded: return problem(.conflict, "shift-ended", "The shift has ended")
        case .undoWindowPassed: return problem(.conflict, "undo-window-passed", "Too late to undo")
        case .undoLaterFirst: return problem(.conflict, "undo-later-first", "Undo the later tap first")
        case .cannotRestore: return problem(.conflict, "cannot-restore", "The ride cannot be put back")
        case .notYourVan, .trackerNotForVan: return problem(.forbidden, "not-your-van", "Not your van")
        case .fixInFuture: return .invalidFields([ValidationError(field: "at", reason: "is in the future; send the time the fix was taken")])
        case .fixTooOld(let stale):
            return .invalidFields([
                ValidationError(
                    field: "at",
                    reason: "is more than \(Int(stale)) seconds ago (VAND_POSITION_STALE): the position would be stale; send fixes as they are taken")
            ])
        }
    }

    /// 500: something unexpected; nothing was changed.
    static func internalError() -> Problem {
        Problem(
            status: .internalServerError, slug: "internal", title: "Internal error",
            detail: "Something went wrong on our side; nothing was changed. Please try again or call the office.")
    }

    /// 422 naming each field that broke a rule.
    static func invalidFields(_ errors: [ValidationError]) -> Problem {
        Problem(
            status: .unprocessableContent, slug: "invalid-fields", title: "Some fields are not valid",
            detail: errors.map(\.description).joined(separator: "; "),
            fields: errors.map { FieldProblem(field: $0.field, reason: $0.reason) }
        )
    }

    /// 400 for a body that is not JSON at all, saying where the parser stopped when known.
    static func malformedJSON(_ position: String? = nil) -> Problem {
        Problem(
            status: .badRequest, slug: "malformed-json", title: "The body is not valid JSON",
            detail: "The body is not valid JSON\(position.map { " (\($0))" } ?? ""). Send a JSON object with Content-Type: application/json.")
    }

    /// 401: no token, or one that is unknown, expired or revoked.
    static func unauthorized(tokenGiven: Bool) -> Problem {
        Problem(
            status: .unauthorized, slug: "unauthorized", title: "Not logged in",
            detail: tokenGiven
                ? "This login has expired or was ended. Log in again with POST /v1/session."
                : "Log in with POST /v1/session and send the token as \"Authorization: Bearer <token>\".",
            headers: [.wwwAuthenticate: tokenGiven ? #"Bearer realm="vand", error="invalid_token""# : #"Bearer realm="vand""#]
        )
    }

    /// The answer to every account refusal, in one place.
    static func account(_ error: AccountError, hotline: String?, now: Date) -> Problem {
        let call = hotline.map { "call the office at \($0)" } ?? "call the office"
        let extras = hotline.map { ["hotline": $0] } ?? [:]
        switch error {
        case .invalidCredentials:
            return Problem(
                status: .unauthorized, slug: "invalid-credentials", title: "Wrong net ID or password",
                detail:
                    "The net ID or the password is wrong. Check both and try again; after 5 failed tries from one address, sign-in waits a minute, then longer.",
                headers: [.wwwAuthenticate: #"Bearer realm="vand""#])
        case .lockedOut(let until):
            let seconds = max(1, Int(until.timeIntervalSince(now).rounded(.up)))
            let minutes = (seconds + 59) / 60
            return Problem(
                status: .tooManyRequests, slug: "locked-out", title: "Too many failed sign-ins",
                detail:
                    "Too many failed sign-ins from this address. Try again in \(minutes) minute\(minutes == 1 ? "" : "s"), or \(call) to reset your password.",
                headers: [.retryAfter: String(seconds)], extensions: extras)
        case .disabled:
            return Problem(
                status: .forbidden, slug: "account-disabled", title: "Account disabled",
                detail: "This account is disabled. Please \(call).", extensions: extras)
        case .temporaryPasswordExpired:
            return Problem(
                status: .forbidden, slug: "temporary-password-expired", title: "Temporary password expired",
                detail: "Your temporary password has expired. Please \(call) for a new one.", extensions: extras)
        case .notAuthenticated:
            return .unauthorized(tokenGiven: true)
        case .passwordChangeRequired:
            return Problem(
                status: .forbidden, slug: "password-change-required", title: "Choose your own password first",
                detail: "You logged in with a temporary password. Choose your own with POST /v1/password {\"current\", \"new\"}; then this works.")
        case .notEligible(let until):
            let why =
                until.map { "Your eligibility ended on \($0)." } ?? "Your net ID is not on the list of riders cleared by the disabilities office."
            return Problem(
                status: .forbidden, slug: "not-eligible", title: "Not cleared to book rides",
                detail: "\(why) To book rides, please \(call).", extensions: extras)
        case .invalid(let errors) where errors.contains(where: { $0.field == "current" }):
            // POST /v1/password with a wrong current password: refused, not a malformed request.
            return Problem(
                status: .forbidden, slug: "wrong-password", title: "The current password is wrong",
                detail: "The current password is wrong. Check it and try again; after 5 wrong tries the net ID is locked for 15 minutes.",
                fields: errors.map { FieldProblem(field: $0.field, reason: $0.reason) })
        case .invalid(let errors):
            return .invalidFields(errors)
        case .wrongRole(let role, let needs):
            let instead =
                switch role {
                case .rider: "Book and follow your rides with /v1/rides (or on the web at /)."
                case .driver: "Use the driver's page at /driver, or the driver API under /v1/driver."
                case .dispatcher: "Keep the day at the dispatcher's console, /dispatch, or with vanadmin."
                }
            let what =
                switch needs {
                case .rider: "This is for riders."
                case .driver: "Only a driver on shift uses this."
                case .dispatcher: "Only a dispatcher uses this."
                }
            return Problem(
                status: .forbidden, slug: "wrong-role", title: "Not for this kind of account",
                detail: "You are signed in with \(role.possessive) account. \(what) \(instead)",
                extensions: ["role": role.rawValue])
        case .noSuchRider, .riderExists, .notWhitelisted:
            return Problem(status: .notFound, slug: "not-found", title: "Not found", detail: "There is no such account.")
        }
    }
}
