import Foundation
import VanDomain
import VanServices

/// A ride as `vanadmin --json` prints it: the rider API's ``RideView`` (the same keys,
/// times with the service zone's offset, `max_ride_minutes`) with the rider's net ID, name
/// and phone beside it, flat.
struct RideJSON: Encodable {
    let view: RideView
    let netID: String
    let riderName: String?
    let riderPhone: String?

    init(_ ride: Ride, riderName: String?, riderPhone: String?, clock: ServiceTime) {
        view = RideView(ride, clock: clock)
        netID = ride.netID.rawValue
        self.riderName = riderName
        self.riderPhone = riderPhone
    }

    init(_ listing: RideQueries.Listing, clock: ServiceTime) {
        self.init(listing.ride, riderName: listing.riderName, riderPhone: listing.riderPhone, clock: clock)
    }

    private enum Extra: String, CodingKey { case netID = "net_id", riderName = "rider_name", riderPhone = "rider_phone" }

    func encode(to encoder: any Encoder) throws {
        try view.encode(to: encoder)
        var container = encoder.container(keyedBy: Extra.self)
        try container.encode(netID, forKey: .netID)
        try container.encode(riderName, forKey: .riderName)
        try container.encode(riderPhone, forKey: .riderPhone)
    }
}

/// `vanadmin manifest --json`: the run sheet with each stop's ride as ``RideJSON``.
struct ManifestJSON: Encodable {
    struct Stop: Encodable {
        let action: String
        let at: Date
        let ride: RideJSON
        let seatsAboard: Int
        let wheelchairsAboard: Int
        let driveMinutes: Int?
    }

    let van: String
    let day: String
    let seats: Int
    let wheelchairPositions: Int
    let stops: [Stop]

    init(_ manifest: Manifest, clock: ServiceTime) {
        van = manifest.van
        day = manifest.day.description
        seats = manifest.seats
        wheelchairPositions = manifest.wheelchairPositions
        stops = manifest.stops.map { stop in
            Stop(
                action: stop.action.rawValue, at: stop.at,
                ride: RideJSON(stop.ride, riderName: stop.riderName, riderPhone: stop.riderPhone, clock: clock),
                seatsAboard: stop.seatsAboard, wheelchairsAboard: stop.wheelchairsAboard, driveMinutes: stop.driveMinutes)
        }
    }
}
