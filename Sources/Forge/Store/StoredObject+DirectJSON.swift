import Foundation

/// A stored object as a worker's answer carries it, written and read without Foundation's coders
/// (``DirectJSON``): two per item of a build.
extension StoredObject {
    /// Appends the object as JSON; false (nothing appended) when a string needs escaping.
    func appendDirectJSON(to json: inout DirectJSON.Writer) -> Bool {
        guard [key, path, role.rawValue, sha256, mimeType].allSatisfy({ DirectJSON.isPlain($0, slashes: true) }) else {
            return false
        }
        json.raw(#"{"key":""#)
        json.plain(key)
        json.raw(#"","path":""#)
        json.plain(path)
        json.raw(#"","role":""#)
        json.plain(role.rawValue)
        json.raw(#"","bytes":"#)
        json.integer(bytes)
        json.raw(#","sha256":""#)
        json.plain(sha256)
        json.raw(#"","mimeType":""#)
        json.plain(mimeType)
        json.raw(#"""#)
        if let durationMs {
            json.raw(#","durationMs":"#)
            json.integer(durationMs)
        }
        if let sampleRate {
            json.raw(#","sampleRate":"#)
            json.integer(sampleRate)
        }
        if let frames {
            json.raw(#","frames":"#)
            json.integer(frames)
        }
        json.raw("}")
        return true
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
