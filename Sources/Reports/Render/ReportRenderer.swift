import EvidenceModel

/// Renders a `ReportModel` as Markdown, HTML, JUnit XML or JSON.
///
/// Pure: the output depends only on the model, the templates, the format and
/// the language, so the same evidence renders the same bytes. Markdown and HTML
/// come from the Mustache templates of the `TemplateSet` and end with an
/// integrity section holding the SHA-256 of the body (see `IntegrityCheck`).
package struct ReportRenderer: Sendable {
    /// The templates and strings it renders with.
    package let templates: TemplateSet

    /// A renderer using `templates` (the built-in ones by default).
    package init(templates: TemplateSet = .embedded) {
        self.templates = templates
    }

    /// Renders `model` in `format` and `lang`.
    ///
    /// - Throws: `ReportError` when a template is invalid, exceeds a rendering limit,
    ///   or (Markdown, HTML) lacks the integrity marker line.
    package func render(_ model: ReportModel, format: ReportFormat, lang: Language) throws -> RenderedReport {
        let strings = try templates.strings(lang)
        let templateSHA256 = templates.templateSHA256(format: format, lang: lang)
        let builtIn = templates.isBuiltIn(format: format, lang: lang)
        let bytes: [UInt8]
        switch format {
        case .md, .html:
            let name = TemplateSet.templateFile(format) ?? ""
            let template = try templates.template(name)
            let context = ReportContext(model: model, strings: strings, lang: lang, reportFile: "report.\(format.fileExtension)").value()
            var text: String
            do {
                text = try template.render(context, escape: format == .md ? TextSafety.markdown : TextSafety.html)
            } catch let e as MustacheError {
                throw ReportError.templateRender(file: templates.origin(name), error: e)
            }
            if !builtIn { text = FixedWords.markCustom(text, format: format, lang: lang, templateSHA256: templateSHA256) }
            bytes = try IntegrityCheck.seal(text, file: templates.origin(name))
        case .junit:
            bytes = Array(JUnitWriter(model: model, strings: strings, lang: lang, customTemplatesSHA256: builtIn ? nil : templateSHA256).render().utf8)
        case .json:
            let english = try templates.strings(.en)
            bytes = Array(JSONReportWriter(model: model, english: english, localized: lang == .en ? nil : strings, lang: lang,
                                           customTemplatesSHA256: builtIn ? nil : templateSHA256).render().utf8)
        }
        return RenderedReport(bytes: bytes, format: format, lang: lang, templateSHA256: templateSHA256, verdict: model.campaignVerdict.rawValue)
    }

    /// What a next step asks for in `lang` (`whatToDo.<code>` of the set's strings), for command-line summaries.
    package func text(of step: NextStep, lang: Language) throws -> String {
        try templates.strings(lang).nextStepText(step)
    }

    /// The sentence for a reason in `lang`, from the set's strings (for command-line summaries).
    package func text(of reason: Reason, lang: Language) throws -> String {
        try templates.strings(lang).reason(reason)
    }
}
