import Foundation
import NIOCore

/// The API's one JSON encoder: every route, every problem and the event stream encode
/// with it (through ``AppRequestContext/responseEncoder`` or these helpers), so every
/// answer orders its keys and escapes its strings the same way.
enum APIJSON {
    /// Sorted keys, slashes left as they are.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `value` as JSON bytes.
    static func data(_ value: some Encodable) throws -> Data {
        try encoder.encode(value)
    }

    /// `value` as JSON text.
    static func string(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
