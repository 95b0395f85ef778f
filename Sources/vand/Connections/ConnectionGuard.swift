import Foundation
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTPTypes

/// What the two guard handlers of one connection share; used on its event loop only.
final class ConnectionState {
    let admission: ConnectionLimits.Admission
    /// How long a request head may take (shorter in the reserve).
    let headTimeout: TimeAmount
    /// True until a request head has arrived, and again once its request has been read.
    var awaitingHead = true
    /// A response with `Connection: close` was written: input is dropped until the socket closes.
    var closing = false
    var headTimer: Scheduled<Void>?

    init(admission: ConnectionLimits.Admission, headTimeout: TimeAmount) {
        self.admission = admission
        self.headTimeout = headTimeout
    }

    func cancelHeadTimer() {
        headTimer?.cancel()
        headTimer = nil
    }
}

/// First in the pipeline, before the HTTP decoder: closes a refused connection as soon as it
/// is active, and closes a connection whose request head is not complete within the head
/// timeout of connecting or of the first byte of its next request (slowloris, or a socket that
/// sends half a head and waits). Hummingbird's own `idleTimeout` cannot do this: it counts
/// from the last decoded part, so an unfinished head would hold the socket for the whole
/// keep-alive time, and NIO's `IdleStateHandler` measures silence, which a client trickling
/// a byte at a time never shows.
final class HeadDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let state: ConnectionState

    init(state: ConnectionState) { self.state = state }

    func channelActive(context: ChannelHandlerContext) {
        if state.admission == .refused {
            context.close(promise: nil)
            return
        }
        startHeadTimer(context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if state.closing { return }
        if state.awaitingHead && state.headTimer == nil { startHeadTimer(context: context) }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.cancelHeadTimer()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        state.cancelHeadTimer()
    }

    private func startHeadTimer(context: ChannelHandlerContext) {
        let state = self.state
        state.headTimer = context.eventLoop.assumeIsolated().scheduleTask(in: state.headTimeout) {
            state.headTimer = nil
            guard state.awaitingHead, !state.closing else { return }
            context.close(promise: nil)
        }
    }
}

/// After the HTTP codec: stops the head timer when a head arrives; answers a connection in the
/// reserve with 503 unless it asks for `/healthz` or `/readyz`; and closes a connection once a
/// response carrying `Connection: close` is written (a 413 for an announced body too large), or
/// answering a request that announced more than any route reads, so such a body is never read. Closing sends FIN after the response and drops what the client
/// still sends until it closes too, or 2 s pass, so the answer is not lost to a reset.
final class RequestGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Seconds a client over the cap is asked to wait.
    static let retryAfter = "5"
    /// The longest a closing connection keeps reading what the client still sends.
    static let linger = TimeAmount.seconds(2)

    private let state: ConnectionState
    private var closeAfterResponse = false
    /// The request being read announced a body larger than any route reads.
    private var unreadBodyTooLarge = false
    private var lingerTimer: Scheduled<Void>?

    init(state: ConnectionState) { self.state = state }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if state.closing { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            state.awaitingHead = false
            state.cancelHeadTimer()
            let announced = head.headerFields[.contentLength].flatMap { Int($0) } ?? 0
            unreadBodyTooLarge = announced > Request.maxBody
            if state.admission == .reserve {
                guard Self.isProbe(head) else { return refuse(context: context) }
                closeAfterResponse = true
            }
        case .body:
            break
        case .end:
            state.awaitingHead = true
            unreadBodyTooLarge = false
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var response):
            if response.headerFields[.connection]?.lowercased() == "close" || unreadBodyTooLarge { closeAfterResponse = true }
            if closeAfterResponse { response.headerFields[.connection] = "close" }
            context.write(wrapOutboundOut(.head(response)), promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            context.write(data, promise: promise)
            if closeAfterResponse { finish(context: context) }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        lingerTimer?.cancel()
        lingerTimer = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        lingerTimer?.cancel()
        lingerTimer = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if state.closing, let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// `GET`/`HEAD` of a health route, which a full server still answers.
    static func isProbe(_ head: HTTPRequest) -> Bool {
        guard head.method == .get || head.method == .head, let path = head.path else { return false }
        let bare = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return bare == "/healthz" || bare == "/readyz"
    }

    private func refuse(context: ChannelHandlerContext) {
        let problem = Problem(
            status: .serviceUnavailable, slug: "http-503", title: "Service Unavailable",
            detail: "vand is serving as many connections as it can. Try again in a few seconds; nothing was changed.")
        let body = ByteBuffer(bytes: (try? problem.encoded()) ?? Data())
        let head = HTTPResponse(
            status: .serviceUnavailable,
            headerFields: [
                .contentType: "application/problem+json", .contentLength: "\(body.readableBytes)",
                .retryAfter: Self.retryAfter, .connection: "close", .xContentTypeOptions: "nosniff",
            ])
        closeAfterResponse = true
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        write(context: context, data: wrapOutboundOut(.end(nil)), promise: nil)
    }

    private func finish(context: ChannelHandlerContext) {
        state.closing = true
        state.cancelHeadTimer()
        context.flush()
        context.close(mode: .output, promise: nil)
        lingerTimer = context.eventLoop.assumeIsolated().scheduleTask(in: Self.linger) { context.close(promise: nil) }
    }
}
