import Crypto
import Foundation
import Hummingbird
import Mustache

/// The web app's Mustache templates and static files, read once at start-up from the
/// web folder (`templates/*.mustache`, `static/*`). Static files are served from memory
/// under a URL carrying a hash of their content, so browsers may cache them for a year.
struct WebAssets: Sendable {
    /// One static file, ready to send.
    struct StaticFile: Sendable {
        let body: ByteBuffer
        let contentType: String
        /// First 12 hex digits of the content's SHA-256: changes whenever the file does.
        let version: String
    }

    let library: MustacheLibrary
    let files: [String: StaticFile]

    /// Reads `directory/templates` and `directory/static`.
    init(directory: String) throws {
        let manager = FileManager.default
        var library = MustacheLibrary()
        let templates = directory + "/templates"
        for name in try manager.contentsOfDirectory(atPath: templates).sorted() where name.hasSuffix(".mustache") {
            let text = try String(contentsOfFile: templates + "/" + name, encoding: .utf8)
            try library.register(text, named: String(name.dropLast(".mustache".count)))
        }
        var files: [String: StaticFile] = [:]
        let statics = directory + "/static"
        for name in try manager.contentsOfDirectory(atPath: statics).sorted() where !name.hasPrefix(".") {
            let data = try Data(contentsOf: URL(fileURLWithPath: statics + "/" + name))
            let digest = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
            files[name] = StaticFile(body: ByteBuffer(bytes: data), contentType: Self.contentType(of: name), version: String(digest.prefix(12)))
        }
        self.library = library
        self.files = files
    }

    /// `/static/app.css?v=…`: the versioned URL of a static file.
    func url(_ name: String) -> String {
        "/static/\(name)?v=\(files[name]?.version ?? "missing")"
    }

    /// Renders `template` with `context` (HTML-escaped unless the template uses `{{{…}}}`).
    func render(_ template: String, _ context: [String: Any]) -> String {
        library.render(context, withTemplate: template) ?? "<p>Missing template \(template).</p>"
    }

    private static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        default: "application/octet-stream"
        }
    }
}
