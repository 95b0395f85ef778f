import Foundation
import VanServices
import VanScheduler
import VanPostgres

/// Where the rider web app's files are and how its cookies are marked.
struct WebSettings: Sendable {
    /// The folder holding `templates/` and `static/` (VAND_WEB_DIR); nil: found automatically.
    var directory: String?
    /// Mark the sign-in cookie `Secure` (VAND_SECURE_COOKIES): riders reach vand over HTTPS,
    /// directly or through a TLS-terminating proxy.
    var secureCookies = false

    static let helpText = """
          VAND_WEB_DIR        The rider web app's templates/ and static/ (default: web/ beside the
                              sql/ folder, e.g. /usr/local/share/vand/web or the checkout's web/).
          VAND_SECURE_COOKIES true when riders reach vand over HTTPS (directly or behind a TLS
                              proxy): the sign-in cookie is marked Secure (default false).
        """

    static func fromEnvironment(_ environment: [String: String]) throws(SettingError) -> WebSettings {
        var settings = WebSettings()
        if let directory = environment["VAND_WEB_DIR"], !directory.isEmpty { settings.directory = directory }
        if let text = environment["VAND_SECURE_COOKIES"], !text.isEmpty {
            switch text.lowercased() {
            case "1", "true", "yes", "on": settings.secureCookies = true
            case "0", "false", "no", "off": settings.secureCookies = false
            default: throw SettingError(variable: "VAND_SECURE_COOKIES", value: text, expected: "true or false")
            }
        }
        return settings
    }

    /// The web folder: the setting, else `web/` beside the migrations folder (an install's
    /// `share/vand/web`, or the source checkout's `web/`).
    func resolvedDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let directory { return directory }
        guard let sql = Migration.defaultDirectory(environment: environment) else { return nil }
        let path = URL(fileURLWithPath: sql).deletingLastPathComponent().appendingPathComponent("web").standardizedFileURL.path
        return FileManager.default.fileExists(atPath: path + "/templates/layout.mustache") ? path : nil
    }
}
