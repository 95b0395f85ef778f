import VanDomain

extension LocalDate: PostgresBindable {
    /// `yyyy-MM-dd`, the server's ISO date form.
    public var postgresText: String? { description }
    /// `date`.
    public static var postgresTypeOID: UInt32 { 1082 }
}

extension LocalDate: PostgresTextDecodable {
    /// Parses the server's `yyyy-MM-dd` (DateStyle is ISO on every connection).
    public init(postgresText text: String) throws(PostgresError) {
        do {
            try self.init(text)
        } catch {
            throw PostgresError(kind: .decoding, message: "'\(text.prefix(40))' is not a valid date")
        }
    }
}

extension NetID: PostgresBindable {
    /// The normalized ID.
    public var postgresText: String? { rawValue }
}

extension NetID: PostgresTextDecodable {
    /// Reads a stored ID; the table's CHECK keeps them valid.
    public init(postgresText text: String) throws(PostgresError) {
        do {
            try self.init(text)
        } catch {
            throw PostgresError(kind: .decoding, message: "'\(text.prefix(40))' is not a valid net ID")
        }
    }
}

extension EmailAddress: PostgresBindable {
    /// The address.
    public var postgresText: String? { rawValue }
}

extension EmailAddress: PostgresTextDecodable {
    /// Reads a stored address (stored only after validation).
    public init(postgresText text: String) throws(PostgresError) {
        do {
            try self.init(text)
        } catch {
            throw PostgresError(kind: .decoding, message: "stored e-mail address is not valid: \(error.reason)")
        }
    }
}

extension PhoneNumber: PostgresBindable {
    /// The normalized number.
    public var postgresText: String? { rawValue }
}

extension PhoneNumber: PostgresTextDecodable {
    /// Reads a stored number (stored only after validation).
    public init(postgresText text: String) throws(PostgresError) {
        do {
            try self.init(text)
        } catch {
            throw PostgresError(kind: .decoding, message: "stored phone number is not valid: \(error.reason)")
        }
    }
}
