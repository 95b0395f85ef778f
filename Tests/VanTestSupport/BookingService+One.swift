import Foundation
import VanServices

extension BookingService {
    /// Books one ride (tests; riders book through ``bookSeries(_:now:)``).
    public func book(_ ride: NewRide, now: Date) async throws -> BookingOutcome {
        try await bookSeries([ride], now: now)[0]
    }
}
