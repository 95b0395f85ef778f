import Foundation

/// The documents made from ``SettingSpec/all``: `vand --help`, the README's table and
/// `deploy/vand.env.example`; and the start-up check for unknown `VAND_*` variables.
extension SettingSpec {
    /// `vand --help`'s settings section: each name, then its help, form and default wrapped
    /// under it (every line within 78 columns, so ArgumentParser does not re-wrap it).
    public static func helpText(width: Int = 78) -> String {
        var lines = ["Settings (environment variables; a bad value exits 78, EX_CONFIG):"]
        for group in Group.allCases {
            let rows = all.filter { $0.group == group }
            guard !rows.isEmpty else { continue }
            lines.append("")
            lines.append("  \(group.rawValue):")
            for spec in rows {
                lines.append("    \(spec.name)")
                lines.append(
                    contentsOf: wrap("\(spec.help) [\(spec.acceptsShort); default \(spec.defaultShort)]", width: width - 8).map { "        " + $0 })
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The README's configuration table (Markdown).
    public static var markdownTable: String {
        var lines = ["| variable | default | accepts | meaning |", "| --- | --- | --- | --- |"]
        for spec in all {
            let cells = [spec.name, spec.defaultShort, spec.acceptsShort, spec.help].map { $0.replacingOccurrences(of: "|", with: "\\|") }
            lines.append("| `\(cells[0])` | \(cells[1]) | \(cells[2]) | \(cells[3]) |")
        }
        return lines.joined(separator: "\n")
    }

    /// `deploy/vand.env.example`: every setting, production values set, the rest commented out at their default.
    public static var environmentExample: String {
        var lines = [
            "# /etc/vand/vand.env — settings for vand.service and vand-worker.service (mode 0600, root-owned).",
            "# Made from the settings table (Sources/VanServices/Settings/SettingSpec+All.swift) by",
            "# scripts/settings-docs; `vand --help` lists the same. A bad value stops start-up with exit",
            "# status 78 and one line naming it; an unknown VAND_* variable is warned about at start.",
        ]
        for group in Group.allCases {
            let rows = all.filter { $0.group == group }
            guard !rows.isEmpty else { continue }
            lines.append("")
            lines.append("# \(group.rawValue).")
            for spec in rows {
                lines.append(contentsOf: wrap("\(spec.help) [\(spec.acceptsShort); default \(spec.defaultShort)]", width: 94).map { "# " + $0 })
                if let value = spec.productionValue {
                    lines.append("\(spec.name)=\(value)")
                } else {
                    lines.append("#\(spec.name)=\(spec.defaultValue ?? "")")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `VAND_*` variables in `environment` that are no setting, each with a suggestion
    /// when one is close (`VAND_REMINDER_LEAD_MINUTES` → `VAND_REMINDER_LEAD`).
    public static func unknown(in environment: [String: String]) -> [(name: String, suggestion: String?)] {
        environment.keys.sorted().filter { $0.hasPrefix("VAND_") && named($0) == nil && !notSettings.contains($0) }.map { name in
            if let renamed = formerNames[name] { return (name, renamed) }
            let candidates = all.map(\.name).filter { $0.hasPrefix("VAND_") }
            let byPrefix = candidates.filter { name.hasPrefix($0) || $0.hasPrefix(name) }.max { $0.count < $1.count }
            let byDistance = candidates.map { ($0, distance($0, name)) }.filter { $0.1 <= 3 }.min { $0.1 < $1.1 }?.0
            return (name, byPrefix ?? byDistance)
        }
    }

    /// Greedy word wrap.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [line]
    }

    /// Levenshtein distance, for suggestions.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
