import GRDB

/// The manifest's versioned schema. Each migration is applied once, in order, and recorded in
/// GRDB's `grdb_migrations` table; `docs/manifest.md` documents the resulting tables.
enum ManifestSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for (name, migrate) in migrations { migrator.registerMigration(name, migrate: migrate) }
        return migrator
    }

    /// Every migration in order, by the name `grdb_migrations` records (never renamed) and the step it takes.
    static let migrations: [(name: String, migrate: @Sendable (Database) throws -> Void)] = [
        ("v1", createTables),
        ("v2", widenObjectRolesAndRecordAlignmentSources),
        ("v3", addVerificationChunks),
        ("v4", addElementIDs),
        ("v5", addCastsAndInlineItems),
        ("v6", addChapterLevels),
        ("v7", indexItemsByChapter),
        ("v8", addBuildFingerprints),
        ("v9", addBuildSettingsAndChunkFiles),
        ("v10", addRemoteCache),
        ("v11", addChapterTimelines),
        ("v12", addNarrationSpans),
        ("v13", addNarrationWindows),
        ("v14", addObjectFrames),
        ("v15", addChapterParts),
        ("v16", addEncodedChapters),
        ("v17", addRemoteObjects),
        ("v18", addNarrationSegments),
    ]

    /// v1: builds, chapters, items, their words, and the store's objects.
    private static func createTables(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE builds (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    recipe_path TEXT NOT NULL,
                    recipe_hash TEXT NOT NULL,
                    tool_version TEXT NOT NULL,
                    engine TEXT NOT NULL,
                    engine_version TEXT NOT NULL,
                    command_line TEXT NOT NULL,
                    stages TEXT NOT NULL,
                    started_at TEXT NOT NULL,
                    ended_at TEXT,
                    outcome TEXT NOT NULL CHECK (outcome IN ('running', 'succeeded', 'failed', 'cancelled')),
                    items_total INTEGER NOT NULL DEFAULT 0,
                    items_synthesized INTEGER NOT NULL DEFAULT 0,
                    items_reused INTEGER NOT NULL DEFAULT 0,
                    items_failed INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE chapters (
                    ordinal INTEGER PRIMARY KEY,
                    title TEXT NOT NULL,
                    source_path TEXT NOT NULL
                );
                CREATE TABLE objects (
                    key TEXT PRIMARY KEY,
                    path TEXT NOT NULL UNIQUE,
                    role TEXT NOT NULL CHECK (role IN ('audio', 'events')),
                    bytes INTEGER NOT NULL,
                    sha256 TEXT NOT NULL,
                    mime_type TEXT NOT NULL,
                    duration_ms INTEGER,
                    sample_rate INTEGER,
                    created_build INTEGER REFERENCES builds(id)
                );
                CREATE TABLE items (
                    id TEXT PRIMARY KEY,
                    chapter INTEGER NOT NULL,
                    ordinal INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    text TEXT NOT NULL,
                    source_path TEXT NOT NULL,
                    source_start INTEGER NOT NULL,
                    source_end INTEGER NOT NULL,
                    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'spoken', 'done', 'failed')),
                    error TEXT,
                    audio_key TEXT REFERENCES objects(key),
                    events_key TEXT REFERENCES objects(key),
                    alignment_key TEXT,
                    duration_ms INTEGER,
                    voice TEXT,
                    built_by INTEGER REFERENCES builds(id)
                );
                CREATE INDEX items_by_ordinal ON items(ordinal);
                CREATE INDEX items_by_status ON items(status);
                CREATE TABLE words (
                    item_id TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
                    idx INTEGER NOT NULL,
                    text TEXT NOT NULL,
                    char_start INTEGER NOT NULL,
                    char_end INTEGER NOT NULL,
                    start_ms INTEGER,
                    end_ms INTEGER,
                    PRIMARY KEY (item_id, idx)
                ) WITHOUT ROWID;
                """)
    }

    /// v2: forced alignment. Alignment objects join the store (the role check is widened by
    /// rebuilding the table, SQLite's documented way to change a constraint), items record
    /// where their timings came from, and words carry the recognizer's confidence.
    private static func widenObjectRolesAndRecordAlignmentSources(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE objects_v2 (
                    key TEXT PRIMARY KEY,
                    path TEXT NOT NULL UNIQUE,
                    role TEXT NOT NULL CHECK (role IN ('audio', 'events', 'alignment')),
                    bytes INTEGER NOT NULL,
                    sha256 TEXT NOT NULL,
                    mime_type TEXT NOT NULL,
                    duration_ms INTEGER,
                    sample_rate INTEGER,
                    created_build INTEGER REFERENCES builds(id)
                );
                INSERT INTO objects_v2 SELECT key, path, role, bytes, sha256, mime_type, duration_ms, sample_rate, created_build FROM objects;
                DROP TABLE objects;
                ALTER TABLE objects_v2 RENAME TO objects;
                ALTER TABLE items ADD COLUMN alignment_source TEXT CHECK (alignment_source IN ('synthesizer', 'forced'));
                ALTER TABLE words ADD COLUMN confidence REAL;
                UPDATE items SET alignment_source = 'synthesizer' WHERE alignment_key IS NOT NULL;
                """)
    }

    /// v3: verification. Transcribed 2-minute chunks of each chapter's timeline, their scores,
    /// and the sentences the recognizer heard in them.
    private static func addVerificationChunks(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE chunks (
                    chapter INTEGER NOT NULL,
                    start_ms INTEGER NOT NULL,
                    end_ms INTEGER NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('passed', 'flagged')),
                    word_error_rate REAL NOT NULL,
                    reference_words INTEGER NOT NULL,
                    errors INTEGER NOT NULL,
                    flagged_items TEXT NOT NULL DEFAULT '[]',
                    recognizer TEXT NOT NULL,
                    key TEXT NOT NULL,
                    transcribed_by INTEGER REFERENCES builds(id),
                    PRIMARY KEY (chapter, start_ms)
                );
                CREATE TABLE transcript_sentences (
                    chapter INTEGER NOT NULL,
                    chunk_start_ms INTEGER NOT NULL,
                    start_ms INTEGER NOT NULL,
                    end_ms INTEGER NOT NULL,
                    text TEXT NOT NULL,
                    FOREIGN KEY (chapter, chunk_start_ms) REFERENCES chunks(chapter, start_ms) ON DELETE CASCADE
                );
                CREATE INDEX transcript_by_chunk ON transcript_sentences(chapter, chunk_start_ms);
                """)
    }

    /// v4: structured sources. Items from HTML, XHTML and EPUB documents keep the id of the
    /// element they came from, so exports can point back into the book's own documents.
    private static func addElementIDs(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE items ADD COLUMN element_id TEXT")
    }

    /// v5: casts and inline items. Dialogue items name the character who speaks them (the cast
    /// picks the voice); inline recipe items keep the recipe's id for naming their files.
    private static func addCastsAndInlineItems(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE items ADD COLUMN character TEXT; ALTER TABLE items ADD COLUMN name TEXT")
    }

    /// v6: loudness and levels of each chapter as exports render it (forge check), keyed on its
    /// audio, layout and mastering, so only chapters that changed are measured again.
    private static func addChapterLevels(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE chapter_levels (
                    key TEXT PRIMARY KEY,
                    chapter INTEGER NOT NULL,
                    variant TEXT NOT NULL,
                    levels TEXT NOT NULL,
                    measured_at TEXT NOT NULL
                );
                CREATE INDEX chapter_levels_chapter ON chapter_levels (chapter);
                """)
    }

    /// v7: exports read a chapter's items and words at a time, not the whole book.
    private static func indexItemsByChapter(_ db: Database) throws {
        try db.execute(sql: "CREATE INDEX items_by_chapter ON items(chapter, ordinal)")
    }

    /// v8: a build that succeeded records the fingerprint of its inputs and of the directory it
    /// left, so the next build with nothing changed answers without splitting or loading items.
    private static func addBuildFingerprints(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE builds ADD COLUMN fingerprint TEXT")
    }

    /// v9: a build records the settings it was made with, the defaults of export and verify;
    /// a chunk records the files it heard (size, inode, time), so a copied output directory
    /// keeps its verification: chunk keys come from content only.
    private static func addBuildSettingsAndChunkFiles(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE builds ADD COLUMN settings TEXT; ALTER TABLE chunks ADD COLUMN files TEXT")
    }

    /// v10: a remote cache. An item says where its audio came from (`origin`: 'remote-cache' when
    /// downloaded), a build how many items it downloaded, and `remote_uploads` which audio keys
    /// this directory has put into which cache, so uploads cut short are finished by the next build.
    private static func addRemoteCache(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE items ADD COLUMN origin TEXT;
                ALTER TABLE builds ADD COLUMN items_downloaded INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE remote_uploads (
                    cache TEXT NOT NULL,
                    audio_key TEXT NOT NULL,
                    PRIMARY KEY (cache, audio_key)
                ) WITHOUT ROWID;
                """)
    }

    /// v11: for apps, each item's place on its chapter's timeline (the chapter audio the exports
    /// write: items plus the recipe's pauses) and a sentence table with chapter times; the view
    /// `chapter_words` gives every word's chapter time.
    private static func addChapterTimelines(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE items ADD COLUMN chapter_start_ms INTEGER;
                ALTER TABLE items ADD COLUMN chapter_end_ms INTEGER;
                CREATE TABLE sentences (
                    item_id TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE,
                    idx INTEGER NOT NULL,
                    text TEXT NOT NULL,
                    char_start INTEGER NOT NULL,
                    char_end INTEGER NOT NULL,
                    word_start INTEGER NOT NULL,
                    word_end INTEGER NOT NULL,
                    chapter_start_ms INTEGER NOT NULL,
                    chapter_end_ms INTEGER NOT NULL,
                    PRIMARY KEY (item_id, idx)
                ) WITHOUT ROWID;
                CREATE VIEW chapter_words AS
                    SELECT items.chapter AS chapter, words.item_id AS item_id, words.idx AS idx, words.text AS text,
                           items.chapter_start_ms + words.start_ms AS chapter_start_ms, items.chapter_start_ms + words.end_ms AS chapter_end_ms
                    FROM words JOIN items ON items.id = words.item_id
                    WHERE items.chapter_start_ms IS NOT NULL AND words.start_ms IS NOT NULL;
                """)
    }

    /// v12: a narration aligned with `forge align narration --audio` records where the recording and its
    /// text agree and where they do not (`forge align`'s report, for apps and for review).
    private static func addNarrationSpans(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE narration_spans (
                    idx INTEGER PRIMARY KEY,
                    kind TEXT NOT NULL CHECK (kind IN ('matched', 'text-not-in-audio', 'audio-without-text')),
                    start_ms INTEGER NOT NULL,
                    end_ms INTEGER NOT NULL,
                    first_item TEXT,
                    first_word INTEGER,
                    last_item TEXT,
                    last_word INTEGER,
                    text TEXT
                );
                """)
    }

    /// v13: `forge align narration --audio` saves each window as it is done, so a stopped run resumes
    /// (rows of one alignment, deleted when it is stored whole).
    private static func addNarrationWindows(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE narration_windows (
                    alignment_key TEXT NOT NULL,
                    idx INTEGER NOT NULL,
                    cursor INTEGER NOT NULL,
                    next_word INTEGER NOT NULL,
                    speech_frame INTEGER NOT NULL,
                    speech BLOB NOT NULL,
                    first_word INTEGER NOT NULL,
                    placements TEXT NOT NULL,
                    PRIMARY KEY (alignment_key, idx)
                ) WITHOUT ROWID;
                """)
    }

    /// v14: an audio object's length in samples, so a chapter is laid out without reading
    /// every audio file's header (most of an edit rebuild of a long book).
    private static func addObjectFrames(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE objects ADD COLUMN frames INTEGER")
    }

    /// v15: the part (book, volume, section) a chapter is in, so exports carry the book's
    /// structure as data, not only inside the chapter's title.
    private static func addChapterParts(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE chapters ADD COLUMN part TEXT")
    }

    /// v16: encoded chapters (AAC, shared by the M4B and the EPUB) join the store, so an export
    /// re-encodes only the chapters whose audio changed. The role check is widened by rebuilding
    /// the table, as in v2.
    private static func addEncodedChapters(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE objects_v16 (
                    key TEXT PRIMARY KEY,
                    path TEXT NOT NULL UNIQUE,
                    role TEXT NOT NULL CHECK (role IN ('audio', 'events', 'alignment', 'encoded')),
                    bytes INTEGER NOT NULL,
                    sha256 TEXT NOT NULL,
                    mime_type TEXT NOT NULL,
                    duration_ms INTEGER,
                    sample_rate INTEGER,
                    created_build INTEGER REFERENCES builds(id),
                    frames INTEGER
                );
                INSERT INTO objects_v16 SELECT key, path, role, bytes, sha256, mime_type, duration_ms, sample_rate, created_build, frames FROM objects;
                DROP TABLE objects;
                ALTER TABLE objects_v16 RENAME TO objects;
                """)
    }

    /// v17: audio objects a build recorded without downloading them ("build without the bytes"):
    /// they are in the remote cache named here, with what their entry says they measure, until
    /// something needs their samples and fetches them.
    private static func addRemoteObjects(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE remote_objects (
                    key TEXT PRIMARY KEY REFERENCES objects(key) ON DELETE CASCADE,
                    cache TEXT NOT NULL,
                    signal TEXT NOT NULL
                );
                """)
    }

    /// v18: where a narration alignment in progress cut the recording and text into segments
    /// (what its first minutes of a long audiobook are spent finding), so a stopped run resumes
    /// without looking again (rows of one alignment, deleted with its windows).
    private static func addNarrationSegments(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE narration_segments (
                    alignment_key TEXT NOT NULL,
                    idx INTEGER NOT NULL,
                    first_word INTEGER NOT NULL,
                    end_word INTEGER NOT NULL,
                    first_sample INTEGER NOT NULL,
                    end_sample INTEGER NOT NULL,
                    PRIMARY KEY (alignment_key, idx)
                ) WITHOUT ROWID;
                """)
    }
}
