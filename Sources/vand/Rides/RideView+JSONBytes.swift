import Hummingbird
import NIOCore
import VanServices

/// The rides a rider reads most (`GET /v1/rides`, `GET /v1/rides/{id}`) written with ``JSONBytes``:
/// the same bytes as ``APIJSON``, checked by `JSONBytesTests`. A field added to ``RideView`` must be
/// added here too, in sorted key order; that test fails until it is.
extension RideView {
    func write(to json: inout JSONBytes) {
        json.beginObject()
        json.field("companions", companions)
        json.key("dropoff"); dropoff.write(to: &json)
        json.field("estimated_dropoff_at", estimatedDropoffAt)
        if let eta { json.key("eta"); eta.write(to: &json) }
        json.field("id", id)
        json.field("kind", kind)
        json.field("max_ride_minutes", maxRideMinutes)
        json.field("may_share", mayShare)
        json.field("needs_wheelchair", needsWheelchair)
        json.field("note", note)
        json.key("pickup"); pickup.write(to: &json)
        json.field("pickup_at", pickupAt)
        json.key("promise"); promise.write(to: &json)
        json.field("reason", reason)
        json.field("ref", ref)
        json.field("requested_at", requestedAt)
        json.field("return_of", returnOf)
        json.field("series_id", seriesID)
        json.field("status", status)
        json.field("updated_at", updatedAt)
        json.field("van", van)
        if let willCall { json.key("will_call"); willCall.write(to: &json) }
        json.endObject()
    }
}

extension WillCallView {
    func write(to json: inout JSONBytes) {
        json.beginObject()
        json.key("pickup"); pickup.write(to: &json)
        json.field("ready_at", readyAt)
        json.field("state", state)
        json.endObject()
    }
}

extension ETAView {
    func write(to json: inout JSONBytes) {
        json.beginObject()
        json.field("at", at)
        json.field("late_minutes", lateMinutes)
        json.field("message", message)
        json.field("minutes", minutes)
        json.field("stops_before", stopsBefore)
        json.field("van_here", vanHere)
        json.endObject()
    }
}

extension PromiseView {
    func write(to json: inout JSONBytes) {
        json.beginObject()
        json.field("kind", kind)
        json.field("window_end", windowEnd)
        json.field("window_start", windowStart)
        json.endObject()
    }
}

extension RideView.Endpoint {
    func write(to json: inout JSONBytes) {
        json.beginObject()
        json.field("address", address)
        json.field("display", display)
        json.field("lat", lat)
        json.field("lon", lon)
        json.field("place", place)
        json.endObject()
    }
}

extension RideList {
    func write(to json: inout JSONBytes) {
        json.beginObject()
        json.field("next", next)
        json.key("rides")
        json.beginArray()
        for ride in rides { ride.write(to: &json) }
        json.endArray()
        json.endObject()
    }
}

extension RideRoutes {
    /// A JSON answer written by `write`, with the headers ``json(_:request:context:)`` sets.
    static func jsonBytes(capacity: Int, _ write: (inout JSONBytes) -> Void) -> Response {
        var json = JSONBytes(capacity: capacity)
        write(&json)
        return jsonResponse(json.buffer)
    }

    /// A 200 with `bytes` of JSON, not to be stored by any cache on the way.
    static func jsonResponse(_ bytes: ByteBuffer) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"], body: .init(byteBuffer: bytes))
    }
}
