import Hummingbird

extension Request {
    /// The body length the client announced in `Content-Length`, nil when it sent none (chunked).
    /// Readers compare it with their limit before reading, so a body too large is refused before
    /// it is sent, and the connection is closed after the 413 (``RequestGuardHandler``) rather
    /// than read to its end.
    var announcedLength: Int? {
        headers[.contentLength].flatMap { Int($0) }
    }
}
