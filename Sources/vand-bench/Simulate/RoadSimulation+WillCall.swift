import Foundation
import VanDomain
import VanServices

extension RoadSimulation {
    /// How long a rider whose "I'm ready" was refused waits before she calls again.
    static let willCallRetry: TimeInterval = 600
    /// How many times she calls before she gives up (a will-call denied).
    static let willCallTries = 3

    /// She says she is ready for her way back (ride `there`'s will-call), as the app does
    /// (``BookingService/ready(_:netID:actor:now:)`` with her net ID). A way back booked is approved
    /// by the dispatcher, as any booking of the day, and then rides like any other. Refused, with
    /// re-planning and `--will-call-replan on`, the road is re-planned at once and the call tried
    /// once more before it counts as refused. When she calls again (nil: she does not).
    func ready(
        _ there: UUID, attempt: Int, services: VandServices, replanner: RoadReplanner, etas: ETAService, now: Date, log: inout Log
    ) async throws -> Date? {
        guard let netID = log.netIDs[there] else { return nil }
        if log.calls[there] == nil { log.calls[there] = WillCallRecord(firstReady: now) }
        log.calls[there]?.tries += 1
        var outcome = try await call(there, netID: netID, services: services, now: now, log: &log)
        if case .refused = outcome, replanning, options.willCallReplan {
            try await replan(replanner, etas: etas, now: now, log: &log)
            log.willCallReplans += 1
            outcome = try await call(there, netID: netID, services: services, now: now, log: &log)
            if case .booked = outcome { log.calls[there]?.savedByReplan = true }
        }
        switch outcome {
        case .booked(let ride), .already(let ride):
            log.calls[there]?.back = ride.id
            log.calls[there]?.promised = ride.promise.window.start
            if ride.status == .pending { _ = try? await services.dispatch.approve(ride.id.uuidString, actor: "dispatcher", now: now) }
            return nil
        case .refused, nil:
            log.calls[there]?.refusals += 1
            return outcome != nil && attempt + 1 < Self.willCallTries ? now.addingTimeInterval(Self.willCallRetry) : nil
        }
    }

    /// One "I'm ready"; nil when the services would not take the call (``WillCallError``, logged).
    private func call(_ there: UUID, netID: NetID, services: VandServices, now: Date, log: inout Log) async throws -> ReadyOutcome? {
        do {
            return try await services.booking.ready(there, netID: netID, actor: netID.rawValue, now: now)
        } catch let error as WillCallError {
            log.refusals.append("ready: \(error)")
            return nil
        }
    }
}
