import VanDomain
import VanPostgres

extension LocalDate: PGBindable {
    /// `yyyy-MM-dd`, the server's ISO date form.
    public var postgresText: String? { description }
    /// `date`.
    public static var postgresTypeOID: UInt32 { 1082 }
}

extension LocalDate: PGTextDecodable {
    /// Parses the server's `yyyy-MM-dd` (DateStyle is ISO on every connection).
    public init(postgresText text: String) throws(PGError) {
        do {
            try self.init(text)
        } catch {
            throw PGError(kind: .decoding, message: "'\(text.prefix(40))' is not a valid date")
        }
    }
}

extension NetID: PGBindable {
    /// The normalized ID.
    public var postgresText: String? { rawValue }
}

extension NetID: PGTextDecodable {
    /// Reads a stored ID; the table's CHECK keeps them valid.
    public init(postgresText text: String) throws(PGError) {
        do {
            try self.init(text)
        } catch {
            throw PGError(kind: .decoding, message: "'\(text.prefix(40))' is not a valid net ID")
        }
    }
}

extension EmailAddress: PGBindable {
    /// The address.
    public var postgresText: String? { rawValue }
}

extension EmailAddress: PGTextDecodable {
    /// Reads a stored address (stored only after validation).
    public init(postgresText text: String) throws(PGError) {
        do {
            try self.init(text)
        } catch {
            throw PGError(kind: .decoding, message: "stored e-mail address is not valid: \(error.reason)")
        }
    }
}

extension PhoneNumber: PGBindable {
    /// The normalized number.
    public var postgresText: String? { rawValue }
}

extension PhoneNumber: PGTextDecodable {
    /// Reads a stored number (stored only after validation).
    public init(postgresText text: String) throws(PGError) {
        do {
            try self.init(text)
        } catch {
            throw PGError(kind: .decoding, message: "stored phone number is not valid: \(error.reason)")
        }
    }
}
