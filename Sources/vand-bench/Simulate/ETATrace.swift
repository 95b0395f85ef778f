import Foundation

/// `vand-bench simulate --eta-trace`: for each pickup whose ETA at −15 minutes was off by more
/// than 3 minutes, what the rider was told (her van, the stops before hers, the van's arrival
/// and her window) against what her van did (the stops it reached before hers, moves by
/// re-planning, same-day bookings), and a tally of the causes over every pickup with an ETA.
enum ETATrace {
    /// A stop of a van's run: a ride's pickup or drop-off.
    struct StopRef: Hashable, Sendable {
        var ride: UUID
        var pickup: Bool
    }

    /// The ETA a rider was shown and what it was worked out from.
    struct Told: Sendable {
        /// When it was taken.
        var at: Date
        /// Her van then.
        var van: Int64
        /// The ETA shown (the van at her stop ready for her).
        var eta: Date
        /// The van's estimated arrival (earlier than `eta` when it waits for her window).
        var arrival: Date
        /// Her pickup's planned time then.
        var plannedAt: Date
        /// Where the van's fix came from (position or tap).
        var source: String
        /// The stops the van was to make before hers, in order.
        var before: [StopRef]
    }

    /// An *arrived* tap.
    struct Arrival: Sendable {
        var van: Int64
        var ride: UUID
        var pickup: Bool
        var at: Date
    }

    /// Why an ETA was off, as far as the run shows it.
    enum Cause: String, CaseIterable {
        /// Re-planning moved her ride to another van after the ETA was taken.
        case movedSelf = "her ride moved to another van"
        /// Her van made a stop before hers of a ride re-planning moved onto it after the ETA.
        case insertedByMove = "a ride moved onto her van ahead of her"
        /// Her van made a stop before hers of a ride booked after the ETA.
        case insertedByBooking = "a same-day booking put ahead of her"
        /// Her van made a stop before hers that was on its run after hers when the ETA was taken.
        case resequenced = "a stop of her van re-sequenced ahead of her"
        /// A stop she was told came first was not made before hers: re-planning moved its ride to another van.
        case movedAway = "a ride ahead of her moved to another van"
        /// A stop she was told came first was not made before hers: its rider cancelled.
        case cancelledAhead = "a ride ahead of her cancelled"
        /// A stop she was told came first was not made before hers: its rider did not show (no drop-off; the van waited).
        case noShowAhead = "a rider ahead of her did not show"
        /// A stop she was told came first was made after hers (re-sequenced behind her).
        case skipped = "a stop told before hers made after"
        /// The van made exactly the stops she was told: the road's noise or the model.
        case sameStops = "same stops as told"
    }

    /// The trace of one run: lines for the pickups off by more than `threshold` seconds, then the tally.
    static func lines(_ log: RoadSimulation.Log, windows: [UUID: DateInterval], threshold: TimeInterval = 180) -> [String] {
        var pickupArrival: [UUID: Arrival] = [:]
        for arrival in log.arrivals where arrival.pickup && pickupArrival[arrival.ride] == nil { pickupArrival[arrival.ride] = arrival }
        var tally: [Cause: (all: Int, off: Int, errors: [Double])] = [:]
        var lines: [String] = []
        let short = { (id: UUID) in String(id.uuidString.suffix(6)) }
        let clock = { (date: Date) -> String in
            let f = DateFormatter()
            f.timeZone = TimeZone(identifier: "America/New_York")
            f.dateFormat = "HH:mm:ss"
            return f.string(from: date)
        }
        for (ride, told) in log.etaTold.sorted(by: { $0.value.at < $1.value.at }) {
            guard let arrived = pickupArrival[ride], let eta = log.eta[ride] else { continue }
            let error = arrived.at.timeIntervalSince(eta)  // positive: the van came later than told
            // What her van did between the ETA and her arrival.
            let made = log.arrivals.filter { $0.van == arrived.van && $0.at >= told.at && $0.at <= arrived.at && !($0.ride == ride && $0.pickup) }
                .map { StopRef(ride: $0.ride, pickup: $0.pickup) }
            let toldSet = Set(told.before), madeSet = Set(made)
            let extra = made.filter { !toldSet.contains($0) }
            let missing = told.before.filter { !madeSet.contains($0) }
            var causes: [Cause] = []
            if log.moves[ride]?.contains(where: { $0.at > told.at && $0.at <= arrived.at }) == true || arrived.van != told.van {
                causes.append(.movedSelf)
            }
            for stop in extra {
                if log.moves[stop.ride]?.contains(where: { $0.at >= told.at && $0.van == arrived.van }) == true {
                    causes.append(.insertedByMove)
                } else if let booked = log.bookedAt[stop.ride], booked >= told.at {
                    causes.append(.insertedByBooking)
                } else {
                    causes.append(.resequenced)
                }
            }
            if told.before.contains(where: { log.noShows.contains($0.ride) }) { causes.append(.noShowAhead) }
            for stop in missing where !log.noShows.contains(stop.ride) {
                if let cancelled = log.cancelledAt[stop.ride], cancelled >= told.at {
                    causes.append(.cancelledAhead)
                } else if log.moves[stop.ride]?.contains(where: { $0.at >= told.at && $0.van != told.van }) == true {
                    causes.append(.movedAway)
                } else {
                    causes.append(.skipped)
                }
            }
            if causes.isEmpty { causes.append(.sameStops) }
            let unique = Cause.allCases.filter { causes.contains($0) }
            let off = abs(error) > threshold
            for cause in unique {
                tally[cause, default: (0, 0, [])].all += 1
                if off { tally[cause, default: (0, 0, [])].off += 1 }
                tally[cause, default: (0, 0, [])].errors.append(abs(error) / 60)
            }
            guard off else { continue }
            let window = windows[ride].map { "\(clock($0.start))–\(clock($0.end))" } ?? "?"
            lines.append(
                String(
                    format: "  ETA off %+.1f min: ride %@ window %@, told at %@ (van %lld, %@): ETA %@ (van arriving %@, planned %@),"
                        + " arrived %@ on van %lld; told before hers %d stops, made %d; extra [%@], not made [%@]; %@",
                    error / 60, short(ride), window, clock(told.at), told.van, told.source, clock(eta), clock(told.arrival),
                    clock(told.plannedAt), clock(arrived.at), arrived.van, told.before.count, made.count,
                    extra.map { short($0.ride) + ($0.pickup ? "P" : "D") }.joined(separator: " "),
                    missing.map { short($0.ride) + ($0.pickup ? "P" : "D") }.joined(separator: " "),
                    unique.map(\.rawValue).joined(separator: "; ")))
        }
        lines.append("  ETA trace, by cause (a pickup may have several): pickups, of them off by > \(Int(threshold / 60)) min, mean |error| min")
        for cause in Cause.allCases {
            guard let entry = tally[cause] else { continue }
            lines.append(String(format: "    %@: %d, %d, %.1f", cause.rawValue, entry.all, entry.off, entry.errors.mean))
        }
        return lines
    }
}
