import Foundation
import Testing
import VanDomain
import VanPostgres
import VanScheduler
import VanTestSupport
@testable import VanServices

/// The road's speed learned from the drivers' taps (``RoadSpeeds``, sql/0043).
@Suite("Road speeds learned from the taps")
struct RoadSpeedsTests {
    /// Log-normal draws around `mean` with coefficient of variation `cv`, from a fixed seed.
    func draws(_ count: Int, mean: Double, cv: Double, seed: UInt64) -> [Double] {
        var state = seed
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(state >> 11) + 0.5) / Double(1 << 53)
        }
        let sigma2 = log(1 + cv * cv), mu = log(mean) - sigma2 / 2
        return (0..<count).map { _ in exp(mu + sigma2.squareRoot() * (-2 * log(uniform())).squareRoot() * cos(2 * .pi * uniform())) }
    }

    @Test func theFactorConvergesOnAKnownBiasAndLeavesOutliersOut() {
        var factor = RoadSpeeds.Factor(factor: 1, samples: 0)
        // A day of legs 25 % slower than the model, noise 0.3, learned ten at a time.
        let legs = draws(400, mean: 1.25, cv: 0.3, seed: 7)
        for start in stride(from: 0, to: legs.count, by: 10) {
            factor = RoadSpeeds.updated(factor, with: Array(legs[start..<start + 10]))
        }
        #expect(abs(factor.factor - 1.25) < 0.06, "\(factor)")
        #expect(factor.samples == legs.filter { RoadSpeeds.ratioRange.contains($0) }.count)
        // A van stuck at a stop (ten times the model) and a tap from the wrong place (a tenth) move nothing.
        #expect(RoadSpeeds.updated(factor, with: [10, 0.1]) == factor)
        // A day of snow (twice the model) moves it within a few dozen legs, and a fine day back.
        var snow = factor
        for _ in 0..<6 { snow = RoadSpeeds.updated(snow, with: draws(10, mean: 2, cv: 0.3, seed: 11)) }
        #expect(snow.factor > 1.5, "\(snow)")
        var fine = snow
        for _ in 0..<12 { fine = RoadSpeeds.updated(fine, with: draws(10, mean: 1, cv: 0.3, seed: 13)) }
        #expect(fine.factor < 1.3, "\(fine)")
    }

    @Test func anHourUsesItsOwnFactorOnlyWithEnoughLegs() {
        let zone = TimeZone(identifier: "America/New_York")!
        let nine = Date(timeIntervalSince1970: 1_795_410_000 + 9 * 3_600)  // Monday 9:00 New York
        var table: RoadSpeeds.Table = [-1: .init(factor: 1.2, samples: 60), 9: .init(factor: 1.5, samples: 49)]
        #expect(RoadSpeeds.factor(table, at: nine, timeZone: zone) == 1.2)
        // An hour's own counts from 50 legs, weighed against every hour's as 100 legs (here with no
        // spread: any difference is beyond its noise).
        table[9]?.samples = 50
        #expect(abs(RoadSpeeds.factor(table, at: nine, timeZone: zone) - (50 * 1.5 + 100 * 1.2) / 150) < 1e-12)
        table[9]?.samples = 400
        #expect(abs(RoadSpeeds.factor(table, at: nine, timeZone: zone) - 1.35) < 1e-12, "its weight is capped at 100 legs")
        #expect(RoadSpeeds.factor(table, at: nine.addingTimeInterval(3_600), timeZone: zone) == 1.2)
        // Too few legs in all, or too close to the model: the model stands.
        #expect(RoadSpeeds.factor([-1: .init(factor: 1.2, samples: 49)], at: nine, timeZone: zone) == 1)
        #expect(RoadSpeeds.factor([-1: .init(factor: 1.04, samples: 500)], at: nine, timeZone: zone) == 1)
        #expect(RoadSpeeds.factor([-1: .init(factor: 0.94, samples: 500)], at: nine, timeZone: zone) == 0.94)
        // … or within three standard errors of it: 1.08 from 60 legs spread by 0.3 is noise, from 600 it is not.
        let spread = { (samples: Int) in RoadSpeeds.Factor(factor: 1.08, samples: samples, squares: 1.08 * 1.08 + 0.09) }
        #expect(RoadSpeeds.factor([-1: spread(60)], at: nine, timeZone: zone) == 1)
        #expect(RoadSpeeds.factor([-1: spread(600)], at: nine, timeZone: zone) == 1.08)
        // An hour 0.1 off every hour's, from 60 legs, is noise when every hour's legs spread by 0.3
        // (whatever its own few legs' spread): every hour's stands.
        let noisyHour = RoadSpeeds.Factor(factor: 1.18, samples: 60)
        #expect(RoadSpeeds.factor([-1: spread(600), 9: noisyHour], at: nine, timeZone: zone) == 1.08)
        let clearHour = RoadSpeeds.Factor(factor: 1.28, samples: 400, squares: 1.28 * 1.28 + 0.09)
        #expect(abs(RoadSpeeds.factor([-1: spread(600), 9: clearHour], at: nine, timeZone: zone) - (100 * 1.28 + 100 * 1.08) / 200) < 1e-12)
        #expect(TripEstimator().learned(1.25).averageSpeedKmh == 16)
    }

    /// A synthetic day on one van: each ride driven from the stop before at 1.25 × the model
    /// (the taps as a driver makes them), a leg to a pickup that waited for its window, and one
    /// tap undone. Learned once, each leg once; the planner's and the ETAs' model then drive slower.
    @Test func aDayOfTapsTeachesThePlannerTheRoadsSpeed() async throws {
        let f = try await BookingFixture(vans: [("Van 1", 8, 1)], oneRiderAtATime: false)
        let estimator = TripEstimator()
        let places = [f.scl, f.sml, try Coordinate(latitude: 41.3300, longitude: -72.9150), try Coordinate(latitude: 41.3050, longitude: -72.9400)]
        let slow = 1.25
        var rides: [Ride] = []
        for index in 0..<60 {
            var ride = f.request(index % 60, at: f.monday(3).addingTimeInterval(Double(index) * 1_200))
            ride.pickup = RideEndpoint(coordinate: places[index % 4], placeName: nil)
            ride.dropoff = RideEndpoint(coordinate: places[(index + 1) % 4], placeName: nil)
            guard case .booked(let booked)? = try await f.booking.bookSeries([ride], now: f.now).first else {
                Issue.record("ride \(index) should book"); return
            }
            rides.append(booked)
        }
        let booked = rides
        let legs = try await f.db.pool.withConnection { conn -> Int in
            try conn.execute("INSERT INTO riders (net_id, name, password_hash, role) VALUES ('drv1', 'Dee', 'x', 'driver')")
            let shift = try conn.query(
                "INSERT INTO shifts (driver_net_id, van_id, started_at) VALUES ('drv1', \(booked[0].vanID!), \(f.monday(2, 30))) RETURNING id"
            ).first!.decode(Int64.self, at: 0)
            func tap(_ ride: Ride, _ stop: String, _ action: String, _ at: Date, undone: Bool = false) throws {
                try conn.execute(
                    """
                    INSERT INTO stop_taps (tap_key, shift_id, ride_id, stop, action, at, undone_at)
                    VALUES (\(UUID()), \(shift), \(ride.id), \(stop), \(action), \(at), \(undone ? at : nil))
                    """)
            }
            var legs = 0
            for ride in booked {
                // The van waits at the pickup for the window (a leg not learned from), boards,
                // then drives to the drop-off at 1.25 × the model.
                let boarded = ride.pickupAt.addingTimeInterval(estimator.boarding)
                try tap(ride, "pickup", "arrived", ride.pickupAt)
                try tap(ride, "pickup", "boarded", boarded)
                let drive = estimator.deadhead(from: ride.pickup.coordinate!, to: ride.dropoff.coordinate!)
                let arrived = boarded.addingTimeInterval((drive * slow).rounded())
                try tap(ride, "dropoff", "arrived", arrived)
                try tap(ride, "dropoff", "dropped_off", arrived.addingTimeInterval(estimator.alighting))
                if drive >= RoadSpeeds.shortestLeg { legs += 1 }
            }
            // A drop-off tapped by mistake and undone teaches nothing.
            try tap(booked[0], "dropoff", "arrived", booked[0].pickupAt.addingTimeInterval(30_000), undone: true)
            return legs
        }
        let evening = f.monday(23, 30)
        // An office that drives on the model as set learns nothing.
        try await f.db.pool.withConnection { conn in
            try conn.execute("INSERT INTO settings (key, value, updated_by) VALUES ('scheduler', '{\"learnRoadSpeed\": false}', 'test')")
        }
        #expect(try await RoadSpeeds.learn(f.db.pool, now: evening, timeZone: f.zone) == 0)
        try await f.db.pool.withConnection { conn in try conn.execute("DELETE FROM settings WHERE key = 'scheduler'") }
        #expect(try await RoadSpeeds.learn(f.db.pool, now: evening, timeZone: f.zone) == legs)
        #expect(try await RoadSpeeds.learn(f.db.pool, now: evening.addingTimeInterval(60), timeZone: f.zone) == 0, "each leg once")
        let table = try await f.db.pool.withConnection { try RoadSpeeds.table($0) }
        let all = try #require(table[-1])
        #expect(all.samples == legs)
        // The legs are whole seconds, so 1.25 to within a few hundredths.
        #expect(abs(all.factor - slow) < 0.02, "\(all)")
        // The booking path's model drives at 20 / 1.25 km/h from now on; the model as set is unchanged.
        let scheduler = try await f.db.pool.withConnection { try ServiceCalendarStore.scheduler($0, timeZone: f.zone, around: f.monday(15)) }
        #expect(abs(scheduler.estimator.averageSpeedKmh - 20 / all.factor) < 1e-9)
        #expect(try await f.db.pool.withConnection { try ServiceCalendarStore.settings($0) }.estimator.averageSpeedKmh == 20)
        await f.db.close()
    }
}
