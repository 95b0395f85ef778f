import Testing
@testable import VanServices

@Suite("The background search thread")
struct BackgroundSearchThreadTests {
    @Test func theBackgroundSearchThreadRunsUnderSchedIdle() async throws {
        // SCHED_IDLE (5): a booking's threads always come first.
        #expect(try await BackgroundSearchThread.policy() == BackgroundSearchThread.idlePolicy)
        // Its budget is its own CPU time: it grows with the work the thread does.
        let used = try await BackgroundSearchThread.run {
            let before = BackgroundSearchThread.threadCPUSeconds()
            var x: UInt64 = 1
            for i in 0..<5_000_000 { x = x &* 6_364_136_223_846_793_005 &+ UInt64(i) }
            return (BackgroundSearchThread.threadCPUSeconds() - before, x)
        }
        #expect(used.0 > 0, "no CPU time counted (\(used.1))")
    }
}
