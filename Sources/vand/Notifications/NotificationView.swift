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

    /// One server-sent event: `id:` (the notification's id), `event: notification`, this as its data.
    func serverSentEvent() throws -> ServerSentEvent {
        try ServerSentEvent(.notification, id: id, payload: self)
    }
}

extension NotificationView {
    /// The view of `notification`, its time written by `clock`.
    init(_ notification: InboxNotification, clock: ServiceTime) {
        self.init(
            id: notification.id, kind: notification.kind, ride_id: notification.rideID?.uuidString.lowercased(),
            message: notification.message, created_at: clock.format(notification.createdAt))
    }
}

/// `GET /v1/notifications`: a page of the rider's notifications.
struct NotificationList: Encodable, Sendable {
    let notifications: [NotificationView]
    /// The id to pass as `after` next time (the last one shown, or the `after` given).
    let next: Int64
}
