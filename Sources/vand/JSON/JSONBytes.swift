import NIOCore

/// JSON written straight into a `ByteBuffer`, byte for byte what ``APIJSON/encoder`` writes
/// (keys in sorted order — the caller writes them so —, `/` unescaped, absent optionals left
/// out), for the hot read path, where `JSONEncoder` would build a tree of boxed values for every
/// ride. A test compares both encoders'
/// bytes for every body written this way (`JSONBytesTests`).
struct JSONBytes {
    /// The bytes so far (an array: appending to it is cheaper than writing to a ByteBuffer byte by byte).
    private(set) var bytes: [UInt8] = []
    /// One entry per open container: whether it already holds a member (so the next needs a comma).
    private var filled: [Bool] = []

    init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
    }

    /// The JSON, for a response body.
    var buffer: ByteBuffer { ByteBuffer(bytes: bytes) }

    mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); filled.append(false) }
    mutating func endObject() { filled.removeLast(); bytes.append(UInt8(ascii: "}")) }
    mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); filled.append(false) }
    mutating func endArray() { filled.removeLast(); bytes.append(UInt8(ascii: "]")) }

    /// `"name":` in the open object; the value written next belongs to it.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        append(name)
        append("\":")
        afterKey = true
    }

    /// A key was just written: its value takes no comma.
    private var afterKey = false

    /// A comma before the next member of the open array or object, unless it is the first one.
    private mutating func separate() {
        if afterKey { afterKey = false; return }
        guard let last = filled.last else { return }
        if last { bytes.append(UInt8(ascii: ",")) } else { filled[filled.count - 1] = true }
    }

    mutating func value(_ text: String) {
        separate()
        writeString(text)
    }

    mutating func value(_ number: Int) {
        separate()
        bytes.append(contentsOf: String(number).utf8)
    }

    /// As JSONEncoder writes a Double: its shortest description, without a trailing ".0".
    mutating func value(_ number: Double) {
        separate()
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    mutating func value(_ flag: Bool) {
        separate()
        append(flag ? "true" : "false")
    }

    /// `"name": value`, or nothing when `value` is nil (as `encodeIfPresent` leaves it out).
    mutating func field(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        self.value(value)
    }

    mutating func field(_ name: StaticString, _ value: Double?) {
        guard let value else { return }
        key(name)
        self.value(value)
    }

    mutating func field(_ name: StaticString, _ value: Int) {
        key(name)
        self.value(value)
    }

    mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        self.value(value)
    }

    /// A JSON string: `"` and `\` escaped, control characters as JSONEncoder writes them, the rest as UTF-8.
    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if start < index { self.bytes.append(contentsOf: utf8[start..<index]) }
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case 0x08: append("\\b")
                case 0x0C: append("\\f")
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    append("\\u00")
                    self.bytes.append(hex[Int(byte >> 4)])
                    self.bytes.append(hex[Int(byte & 0xF)])
                }
                start = index + 1
            }
            if start < utf8.count { self.bytes.append(contentsOf: utf8[start..<utf8.count]) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
