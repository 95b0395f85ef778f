import Foundation
import Hummingbird
import NIOCore

/// A submitted `application/x-www-form-urlencoded` form: every value of every name, in order.
struct WebForm: Sendable {
    /// Largest form body read (a booking form is well under 2 kB).
    static let maxBody = 16 * 1024

    private(set) var pairs: [(String, String)] = []

    init(pairs: [(String, String)]) { self.pairs = pairs }

    /// Parses `a=1&b=two+words&c=%C3%A9`.
    init(encoded text: String) {
        for part in text.split(separator: "&", omittingEmptySubsequences: true) {
            let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            pairs.append((Self.decode(kv[0]), kv.count > 1 ? Self.decode(kv[1]) : ""))
        }
    }

    /// Reads the request's form body; more than ``maxBody`` bytes, announced or sent, is ``TooLarge``.
    static func read(_ request: Request) async throws -> WebForm {
        if let length = request.announcedLength, length > maxBody { throw TooLarge() }
        do {
            let buffer = try await request.body.collect(upTo: maxBody)
            return WebForm(encoded: String(buffer: buffer))
        } catch is NIOTooManyBytesError {
            throw TooLarge()
        }
    }

    /// A form body over ``maxBody``: ``WebPages/form(_:)`` answers it with a 413 page.
    struct TooLarge: Error {}

    /// The first value of `name`, trimmed; "" when absent.
    subscript(_ name: String) -> String {
        (pairs.first { $0.0 == name }?.1 ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The raw first value of `name` (untrimmed: passwords), or "".
    func raw(_ name: String) -> String { pairs.first { $0.0 == name }?.1 ?? "" }

    /// Every value of `name` (checkbox groups).
    func all(_ name: String) -> [String] { pairs.filter { $0.0 == name }.map(\.1) }

    /// Whether a checkbox named `name` was ticked.
    func isChecked(_ name: String) -> Bool { !self[name].isEmpty }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
