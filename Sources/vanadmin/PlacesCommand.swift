import ArgumentParser
import Foundation
import VanDomain
import VanServices

/// `vanadmin places …`: campus landmarks.
struct PlacesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places",
        abstract: "Add, import and list campus places.",
        subcommands: [Add.self, Import.self, List.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a place.")
        @Argument(help: "The name riders and drivers know, e.g. \"Sterling Chemistry Lab\".") var name: String
        @Option(parsing: .unconditional, help: "Latitude in degrees (a negative one as typed: --lat -33.9).") var lat: Double
        @Option(parsing: .unconditional, help: "Longitude in degrees (a negative one as typed: --lon -72.92241).") var lon: Double
        @Option(name: .customLong("alias"), help: "Another name (repeatable), e.g. SCL.") var aliases: [String] = []
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            let coordinate: Coordinate
            do { coordinate = try Coordinate(latitude: lat, longitude: lon) } catch { throw CLIError("\(error)") }
            try await withDatabase { db in
                let place = try await PlaceStore(pool: db.pool).add(
                    Place(name: name, aliases: aliases, coordinate: coordinate), actor: try actor.resolved())
                say("added \(place.name)")
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import places from CSV (header: name,lat,lon[,aliases] with aliases separated by ';').",
            discussion: "All or nothing: one bad line and nothing is imported. Re-importing the same file changes nothing."
        )
        @Argument(help: "The CSV file.") var file: String
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw CLIError("cannot read \(file)") }
            try await withDatabase { db in
                let summary = try await PlaceStore(pool: db.pool).importCSV(text, actor: try actor.resolved())
                say("added \(summary.added), updated \(summary.updated), unchanged \(summary.unchanged)")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List places by name.")
        @Flag(help: "JSON for scripts.") var json = false

        func run() async throws {
            try await withDatabase { db in
                let places = try await PlaceStore(pool: db.pool).list()
                if json { return try printJSON(places) }
                printTable(
                    ["NAME", "ALIASES", "LAT", "LON"],
                    places.map {
                        [
                            $0.name, $0.aliases.joined(separator: ", "), String(format: "%.5f", $0.coordinate.latitude),
                            String(format: "%.5f", $0.coordinate.longitude),
                        ]
                    })
            }
        }
    }
}
