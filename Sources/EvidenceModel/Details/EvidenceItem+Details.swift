extension EvidenceItem {
    /// The item's details read as `type` (the caller checks `self.type` first).
    package func details<D: EvidenceDetails>(as type: D.Type) -> D { D(json: details) }
}
