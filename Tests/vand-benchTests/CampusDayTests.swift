import Foundation
import Testing
import VanDomain
import VanPostgres
import VanScheduler
import VanServices
import VanTestSupport
@testable import vand_bench

@Suite("Campus-day benchmark")
struct CampusDayTests {
    let timeZone = TimeZone(identifier: "America/New_York")!

    @Test func theGeneratorIsSeededAndMakesARealisticDay() {
        let day = CampusDayGenerator(timeZone: timeZone, requests: 300, seed: 7)
        let requests = day.generate()
        #expect(requests == day.generate())
        #expect(requests != CampusDayGenerator(timeZone: timeZone, requests: 300, seed: 8).generate())
        #expect(requests.count == 300)
        #expect(zip(requests, requests.dropFirst()).allSatisfy { $0.arrival <= $1.arrival })
        for request in requests {
            #expect(request.from != request.to)
            #expect(request.arrival < request.asked)
            #expect(request.booking != .onDemand || (request.promise == .pickup && request.asked.timeIntervalSince(request.arrival) == 300))
        }
        let day0 = day.midnight
        #expect(requests.allSatisfy { $0.asked > day0 && $0.asked < day0.addingTimeInterval(86_400) })
        // Class changes make peaks: the busiest half hour holds far more than an even share.
        let halfHours = Dictionary(grouping: requests) { Int($0.asked.timeIntervalSince(day0) / 1_800) }.mapValues(\.count)
        #expect(halfHours.values.max()! > 2 * requests.count / 32)
        #expect(requests.contains { $0.wheelchair } && requests.contains { $0.companions > 0 } && requests.contains { $0.promise == .arriveBy })
        #expect(Set(requests.map(\.booking)) == Set(CampusRequest.Booking.allCases))
    }

    @Test func sharedRidesServeAtLeastAsManyAsOneRiderAndTheRoutesCheck() async throws {
        var options = CampusBenchOptions()
        options.rides = 30
        options.seed = 3
        let day = CampusDay(options: options, timeZone: timeZone)
        let requests = day.generator.generate()
        var results: [CampusModel: CampusDay.Result] = [:]
        for model in CampusModel.allCases {
            let database = try await TestCluster.makeDatabase(poolSize: 2)
            results[model] = try await day.run(model, on: database, requests: requests)
            await database.close()
        }
        let shared = try #require(results[.shared]), one = try #require(results[.oneRider])
        for result in [shared, one] {
            #expect(result.problems == [], "\(result.model.title)")
            #expect(result.tally.asked == 30)
            #expect(result.tally.served + result.tally.refused == 30)
            #expect(result.routes.rides.count == result.tally.served)
            #expect(result.tally.refusedAtSuggestion == 0)
        }
        #expect(shared.tally.served >= one.tally.served)
        #expect(shared.tally.served > 0)
        // One rider per van, picked up at the time asked: nobody rides longer than alone
        // (planned times are whole seconds); arrive-by riders asked for a pickup instead.
        #expect(one.routes.rides.allSatisfy { $0.promise.kind == .pickup })
        #expect(one.routes.rides.allSatisfy { abs($0.dropoffAt.timeIntervalSince($0.pickupAt) - one.routes.direct($0)) <= 1 })
    }

    @Test func theRouteCheckCatchesAnOverloadAWindowMissAndAnImpossibleDrive() throws {
        let sml = try Coordinate(latitude: 41.31112, longitude: -72.92880), station = try Coordinate(latitude: 41.29749, longitude: -72.92663)
        let start = Date(timeIntervalSince1970: 1_796_000_000)
        func ride(_ pickup: TimeInterval, _ dropoff: TimeInterval, companions: Int = 0) -> CampusRoutes.RideRow {
            CampusRoutes.RideRow(
                id: UUID(), vanID: 1, pickupAt: start.addingTimeInterval(pickup), dropoffAt: start.addingTimeInterval(dropoff),
                pickup: sml, dropoff: station, wheelchair: false, companions: companions,
                promise: RidePromise(kind: .pickup, asked: start.addingTimeInterval(pickup), width: 900), maxRideSeconds: 1_800)
        }
        func check(_ rides: [CampusRoutes.RideRow], seats: Int = 2) -> [String] {
            let routes = CampusRoutes(vans: [.init(id: 1, seats: seats, wheelchairPositions: 0)], rides: rides, estimator: TripEstimator())
            let promised = Dictionary(uniqueKeysWithValues: rides.map { ($0.id, (kind: $0.promise.kind, asked: $0.promise.window.start)) })
            return CampusRouteCheck.problems(routes, promised: promised, windowWidth: 900)
        }
        // SML → Union Station is about 1.5 km: 2 min boarding and about 6 min of driving.
        #expect(check([ride(0, 600)]) == [])
        #expect(check([ride(0, 600), ride(10, 700)]).contains { $0.contains("cannot get there") })
        #expect(check([ride(0, 600, companions: 1), ride(130, 700)]).contains { $0.contains("seats") })
        var late = ride(0, 600)
        late.pickupAt = start.addingTimeInterval(1_000)
        late.dropoffAt = start.addingTimeInterval(1_600)
        #expect(check([late]).contains { $0.contains("outside its window") })
        #expect(check([ride(0, 2_000)]).contains { $0.contains("limit") })
    }
}
