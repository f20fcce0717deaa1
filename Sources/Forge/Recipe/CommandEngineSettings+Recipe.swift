import Foundation

extension CommandEngineSettings {
    /// Reads `engines.<name>`: `{"command": ["program", "arg"], "timeoutSeconds": 300}`; a program
    /// path with a `/` is resolved against the recipe's folder.
    static func read(recipe entry: JSONValue, name: String, file: String, path: String, folder: URL) throws(RecipeError)
        -> CommandEngineSettings
    {
        let reader = try RecipeObjectReader<RecipeKey>(entry, file: file, path: path)
        var command = try reader.strings(.command)
        guard !command.isEmpty else {
            throw .missingKey(
                file: file, path: reader.fieldPath(.command), expected: "\"command\": [\"program\", \"argument\"]")
        }
        if command[0].contains("/") { command[0] = RecipeLoader.resolve(command[0], against: folder).path }
        let timeout = try reader.integer(.timeoutSeconds, in: allowedTimeouts, default: 300, unit: "seconds")
        return CommandEngineSettings(name: name, command: command, timeoutSeconds: timeout)
    }
}
