//! A request as a whole program (the counter write, or a read with its paging loop, in boto3,
//! the JavaScript SDK v3, TypeScript, Go, Rust or bash with the AWS CLI; the counter write also
//! with the DocumentClient and dynamodb-toolbox): shown in its language with syntax colouring, copied whole,
//! with the command that runs it. A target whose code is not compiled here says so.

use egui::Ui;

use dynoscope_core::expr::codegen::{ClientSetup, Operation, Request, Target};

/// The highlighter's name of the language a program in `target` is written in, when whole
/// programs are written in it.
pub(super) fn language(target: Target) -> Option<&'static str> {
    match target {
        Target::Boto3 => Some("py"),
        Target::JsClient | Target::JsDocument | Target::Toolbox | Target::ElectroDb => Some("js"),
        Target::TypeScript => Some("ts"),
        Target::Cli => Some("sh"),
        Target::Rust => Some("rs"),
        // egui_extras has no Go grammar: C's colours its strings, comments and numbers.
        Target::Go => Some("c"),
        _ => None,
    }
}

/// For an update, a query or a scan: the "Whole program" switch and, when on, the program (or why `target` has
/// none), its Copy button and how to run it. Whether the program was shown (in place of the
/// single request).
pub(super) fn program_ui(
    ui: &mut Ui,
    request: &Request,
    target: Target,
    setup: &ClientSetup,
    on: &mut bool,
) -> bool {
    if let Some(note) = target.not_compiled_note() {
        ui.weak(format!("{}: {note}", target.label()));
    }
    if !matches!(
        request.operation,
        Operation::Update(_) | Operation::Query(_) | Operation::Scan(_)
    ) {
        return false;
    }
    ui.checkbox(on, "Whole program").on_hover_text(
        "The request as a program that runs as it is: an update prints the server's new value, \
         reports a failed condition with the item as it is, and is sent once when it is not safe \
         to repeat; a query or a scan reads every page.",
    );
    if !*on {
        return false;
    }
    let (program, language) = match (request.program(target, setup), language(target)) {
        (Ok(program), Some(language)) => (program, language),
        (Err(error), _) => {
            ui.weak(error.to_string());
            return false;
        }
        (Ok(_), None) => return false,
    };
    ui.horizontal_wrapped(|ui| {
        if ui.button("Copy program").clicked() {
            ui.ctx().copy_text(program.code.clone());
        }
        ui.weak(program.how_to_run());
    });
    let theme = egui_extras::syntax_highlighting::CodeTheme::from_style(ui.style());
    egui::ScrollArea::vertical()
        .id_salt("whole program")
        .max_height(360.0)
        .show(ui, |ui| {
            egui_extras::syntax_highlighting::code_view_ui(ui, &theme, &program.code, language);
        });
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_written_in_python_javascript_and_go() {
        assert_eq!(language(Target::Boto3), Some("py"));
        assert_eq!(language(Target::JsClient), Some("js"));
        assert_eq!(language(Target::JsDocument), Some("js"));
        assert_eq!(language(Target::Toolbox), Some("js"));
        assert_eq!(language(Target::ElectroDb), Some("js"));
        assert_eq!(language(Target::Go), Some("c"));
        assert_eq!(language(Target::TypeScript), Some("ts"));
        assert_eq!(language(Target::Cli), Some("sh"));
        assert_eq!(language(Target::Rust), Some("rs"));
        assert_eq!(language(Target::Java), None);
    }
}
