import Foundation

extension String {
    /// Whether trimming whitespace (with or without newlines) would leave the text as it is
    /// because it starts and ends with a visible ASCII character (`!` to `~`) — decided from two
    /// bytes, where Foundation's trimming bridges through `NSString` and Unicode's tables on
    /// every call. False says nothing: trim the Foundation way then.
    public var hasVisibleASCIIEnds: Bool {
        guard let first = utf8.first, let last = utf8.last else { return false }
        return (0x21...0x7E).contains(first) && (0x21...0x7E).contains(last)
    }
}
