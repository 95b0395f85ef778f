import Foundation

extension Sequence where Element == UUID {
    /// The ids as a PostgreSQL array literal, `{1b4e28ba-2fa1-11d2-883f-0016d3cca427,…}`, to bind
    /// as one text parameter cast to `uuid[]` (`= ANY($1::uuid[])`).
    ///
    /// Written digit by digit: `UUID.uuidString` formats through `sprintf`, and the day board's
    /// 10,000 ids a read spent more time there than PostgreSQL spent on the query.
    public var postgresArrayLiteral: String {
        let hex = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (index, id) in enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            withUnsafeBytes(of: id.uuid) { raw in
                for (position, byte) in raw.enumerated() {
                    if position == 4 || position == 6 || position == 8 || position == 10 { bytes.append(UInt8(ascii: "-")) }
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0x0f)])
                }
            }
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
