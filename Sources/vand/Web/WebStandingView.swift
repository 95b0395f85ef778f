import Foundation
import VanDomain
import VanServices

/// A rider's standing under the no-show policy as the pages show it: her missed trips (each
/// counted, or excluded and why), her cases (the notice, her appeal, the decision) and the
/// policy's sentences. The rider's record page (`/standing`) and the dispatcher's appeals page
/// (`/dispatch/appeals`) read the same values, so both see the one record the service judged.
/// People's words (an appeal, a reason) are values of their own, escaped and put in `<bdi>` by
/// the templates; a sentence made here isolates them (``BidiIsolation``).
struct WebStandingView: Sendable {
    /// Times and dates as people read them.
    let words: WebTimeWords
    /// The service's zone and the office's number, for the letters' sentences.
    let letters: SuspensionLetters
    /// The time the page is made.
    let now: Date

    /// The view in `timeZone` at `now`, naming the office's `hotline`.
    init(timeZone: TimeZone, hotline: String?, now: Date) {
        words = WebTimeWords(timeZone: timeZone)
        letters = SuspensionLetters(timeZone: timeZone, hotline: hotline)
        self.now = now
    }

    /// Today in the service's zone.
    var today: LocalDate { LocalDate(containing: now, in: letters.clock.timeZone) }

    /// The record's values: `standing` (the sentence), `windowDays`, `entries` (with
    /// `hasEntries`), `suspendedNow` (the booking's refusal, when a case keeps her from riding
    /// today) and `policy` (its sentences).
    func record(_ standing: RiderStanding) -> [String: Any] {
        let record = standing.record
        let entries = record.entries.map(entry)
        var values: [String: Any] = [
            "standing": record.standingSentence, "windowDays": String(record.policy.withinDays),
            "entries": entries,
            "hasEntries": !entries.isEmpty, "policy": record.policy.sentences,
        ]
        if let blocking = standing.cases.first(where: { $0.blocks(today) }) {
            values["suspendedNow"] = blocking.bookingRefusal(letters.clock, hotline: letters.hotline)
        }
        return values
    }

    /// One missed trip: `when`, `ref`, `how`, `counts` (with `countedIn`, the notice that named
    /// it), and `why` it does not count.
    func entry(_ entry: NoShowRecord.Entry) -> [String: Any] {
        let trip = entry.trip
        var values: [String: Any] = [
            "when": words.words(trip.pickupAt, now: now), "ref": trip.ref, "rideID": trip.rideID.uuidString.lowercased(),
            "how": trip.status == .noShow ? "No-show" : "Late cancellation", "counts": entry.verdict.counts,
        ]
        switch entry.verdict {
        case .excluded(let exclusion): values["why"] = because(exclusion)
        case .counts:
            // It counted toward that notice; it does not count again toward a new one.
            if let notice = trip.namedInNotice { values["countedIn"] = String(notice) }
        }
        return values
    }

    /// Why a trip does not count, with the office's reason isolated in the sentence.
    func because(_ exclusion: NoShowRecord.Exclusion) -> String {
        if case .excused(let reason) = exclusion { return "excused by the office: \(BidiIsolation.isolated(reason))" }
        return exclusion.sentence(letters.clock)
    }

    /// Where a case stands today, as ``Suspension/phase(on:)`` says it, with its dates in words:
    /// "notice, starts Wednesday, December 9", "in effect until Tuesday, December 15".
    func phase(_ s: Suspension) -> String {
        let clock = letters.clock
        switch s.status {
        case .overturned, .appealed: return s.phase(on: today)
        case .proposed, .upheld:
            if today >= s.endsOn { return "ended" }
            if today >= s.startsOn { return "in effect until \(Suspension.day(LocalDate(dayNumber: s.endsOn.dayNumber - 1), clock))" }
            return "\(s.status == .upheld ? "upheld" : "notice"), starts \(Suspension.day(s.startsOn, clock))"
        }
    }

    /// One case: `id`, `phase`, `noticed`, `trips`, `periodDays`, `period`, `appealBy`, `canAppeal`,
    /// `appeal` (`text`, `filed`, `filedBy`) and `decision` (`upheld`, `reason`, `decided`, `decidedBy`).
    /// `herself` is how "filed by" names the rider when she filed it (`you` on her own page).
    func suspensionCase(_ s: Suspension, herself: String) -> [String: Any] {
        var values: [String: Any] = [
            "id": String(s.id), "phase": phase(s), "status": s.status.rawValue, "noticed": words.words(s.noticedAt, now: now),
            "trips": s.trips.map(letters.trip), "periodDays": String(s.periodDays), "period": s.periodWords(letters.clock),
            "appealBy": Suspension.day(s.appealBy, letters.clock), "canAppeal": s.canAppeal(on: today),
            "appealed": s.status == .appealed, "step": String(s.step),
        ]
        if let appeal = s.appeal {
            values["appeal"] = [
                "text": appeal.text, "filed": words.words(appeal.filedAt, now: now),
                "filedBy": appeal.filedBy == s.netID ? herself : appeal.filedBy,
            ]
        }
        if let decision = s.decision {
            values["decision"] = [
                "upheld": decision.upheld, "outcome": decision.upheld ? "Upheld" : "Overturned", "reason": decision.reason,
                "decided": words.words(decision.decidedAt, now: now), "decidedBy": decision.decidedBy,
            ]
        }
        return values
    }
}
