// The store re-exports the model, so a module that reads or writes evidence imports one name.
@_exported import EvidenceModel
