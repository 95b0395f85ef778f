import Foundation

extension UUID {
    /// A version-7 UUID (RFC 9562): 48 bits of Unix milliseconds, then 74 random bits.
    ///
    /// Ride ids are made this way so new rows land at the right-hand end of the primary-key
    /// index, in pages that stay in memory, however many past rides the table holds; a random
    /// (version-4) id touches a random leaf of an index that, at millions of rides, no longer
    /// fits in `shared_buffers`. The ids stay unguessable (74 random bits), and every request
    /// checks who owns the ride anyway.
    /// `date` is the caller's "now": this module reads no clock.
    public static func timeOrdered(at date: Date) -> UUID {
        var generator = SystemRandomNumberGenerator()
        return timeOrdered(at: date, using: &generator)
    }

    /// ``timeOrdered(at:)`` with the random bits from `generator` (for tests).
    public static func timeOrdered(at date: Date, using generator: inout some RandomNumberGenerator) -> UUID {
        let milliseconds = UInt64(max(0, (date.timeIntervalSince1970 * 1_000).rounded(.down))) & 0xFFFF_FFFF_FFFF
        let random = (generator.next() as UInt64, generator.next() as UInt64)
        func byte(_ value: UInt64, _ shift: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: value >> shift) }
        return UUID(
            uuid: (
                byte(milliseconds, 40), byte(milliseconds, 32), byte(milliseconds, 24),
                byte(milliseconds, 16), byte(milliseconds, 8), byte(milliseconds, 0),
                0x70 | (byte(random.0, 8) & 0x0F), byte(random.0, 0),  // version 7, 12 random bits
                0x80 | (byte(random.1, 56) & 0x3F), byte(random.1, 48),  // variant 10, then random
                byte(random.1, 40), byte(random.1, 32), byte(random.1, 24), byte(random.1, 16), byte(random.1, 8), byte(random.1, 0)
            ))
    }
}
