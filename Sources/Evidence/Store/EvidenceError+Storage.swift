extension EvidenceError {
    /// Maps a SQLite failure to a user-facing error.
    package static func storage(_ error: SQLiteError, path: String) -> EvidenceError {
        if error.isFull {
            return .io("The disk holding '\(path)' is full (or the database reached its size limit). Nothing was written; free space and record again.")
        }
        if error.isBusy {
            return .io("The database '\(path)' stayed locked by another growcert process for too long. Nothing was written; try again.")
        }
        if error.isIO {
            return .io("Cannot write the database '\(path)': \(error.message). Nothing was written; check the file's permissions and the disk.")
        }
        return .internalFailure(error.description)
    }
}
