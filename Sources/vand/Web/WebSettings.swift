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

    static func fromEnvironment(_ environment: [String: String]) throws(SettingError) -> WebSettings {
        var settings = WebSettings()
        settings.directory = SettingSpec.webDirectory.text(environment)
        settings.secureCookies = try SettingSpec.secureCookies.boolean(environment)
        return settings
    }

    /// The web folder: the setting, else `web/` beside the migrations folder (an install's
    /// `share/vand/web`, or the source checkout's `web/`).
    func resolvedDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let directory { return directory }
        guard let sql = VandPaths.migrations(environment: environment) else { return nil }
        let path = URL(fileURLWithPath: sql).deletingLastPathComponent().appendingPathComponent("web").standardizedFileURL.path
        return FileManager.default.fileExists(atPath: path + "/templates/layout.mustache") ? path : nil
    }
}
