import VanDomain
import Foundation
import VanServices

/// A notification as the rider API shows it.
struct NotificationView: Encodable, Sendable {
    let id: Int64
    let kind: String
    let ride_id: String?
    let message: String
    let created_at: String

    init(_ notification: InboxNotification, clock: ServiceTime) {
        id = notification.id
        kind = notification.kind
        ride_id = notification.rideID?.uuidString.lowercased()
        message = notification.message
        created_at = clock.format(notification.createdAt)
    }

    /// One server-sent event: `id:`, `event: notification`, `data:` the JSON.
    func serverSentEvent() throws -> String {
        "id: \(id)\nevent: notification\ndata: \(try json())\n\n"
    }

    func json() throws -> String {
        try APIJSON.string(self)
    }
}

/// `GET /v1/notifications`: a page of the rider's notifications.
struct NotificationList: Encodable, Sendable {
    let notifications: [NotificationView]
    /// The id to pass as `after` next time (the last one shown, or the `after` given).
    let next: Int64
}
