import Foundation

/// A stored object as a worker's answer carries it, written and read without Foundation's coders
/// (``DirectJSON``): two per item of a build.
extension StoredObject {
    /// Whether the direct reader (``direct(from:)``) can read the object back: no string needs escaping.
    var isDirectlyWritable: Bool {
        [key, path, role.rawValue, sha256, mimeType].allSatisfy { DirectJSON.isPlain($0, slashes: true) }
    }

    /// Appends the object as JSON; false (nothing appended) when a string needs escaping.
    func appendDirectJSON(to json: inout JSONWriter) -> Bool {
        guard isDirectlyWritable else { return false }
        json.object { writeMembers(to: &$0) }
        return true
    }

    /// Its members in the order of its declaration, as ``direct(from:)`` reads them.
    func writeMembers(to json: inout JSONWriter) {
        json.field("key", key)
        json.field("path", path)
        json.field("role", role.rawValue)
        json.field("bytes", bytes)
        json.field("sha256", sha256)
        json.field("mimeType", mimeType)
        json.field("durationMs", ifPresent: durationMs)
        json.field("sampleRate", ifPresent: sampleRate)
        json.field("frames", ifPresent: frames)
    }

    /// Reads an object as ``appendDirectJSON(to:)`` writes it; nil for anything else.
    static func direct(from reader: inout DirectJSON.Reader) -> StoredObject? {
        guard reader.expect(#"{"key":""#), let key = reader.plainString(slashes: true),
            reader.expect(#","path":""#), let path = reader.plainString(slashes: true),
            reader.expect(#","role":""#), let roleName = reader.plainString(slashes: true),
            let role = Role(rawValue: roleName),
            reader.expect(#","bytes":"#), let bytes = reader.integer(),
            reader.expect(#","sha256":""#), let sha256 = reader.plainString(slashes: true),
            reader.expect(#","mimeType":""#), let mimeType = reader.plainString(slashes: true)
        else { return nil }
        var object = StoredObject(key: key, path: path, role: role, bytes: bytes, sha256: sha256, mimeType: mimeType)
        if reader.expect(#","durationMs":"#) {
            guard let value = reader.integer() else { return nil }
            object.durationMs = value
        }
        if reader.expect(#","sampleRate":"#) {
            guard let value = reader.integer() else { return nil }
            object.sampleRate = value
        }
        if reader.expect(#","frames":"#) {
            guard let value = reader.integer() else { return nil }
            object.frames = value
        }
        return reader.expect("}") ? object : nil
    }
}
