//! The like and the unlike as whole programs with ElectroDB 3: the transaction's writes as
//! `item.put/update/delete(…).commit()` in `service.transaction.write`, sent with one `token`
//! — again with the same token after a lost answer, as the JavaScript program does (its ending
//! is that program's). ElectroDB answers a cancellation instead of throwing it: its reasons are
//! read from the answer; its own errors are raised before anything is sent.

use super::electro::PACKAGES;
use super::like::{LIKE_JS_STATE, LIKE_JS_TAIL, LIKE_JS_WORDS, SENDS};
use super::{Program, marked};
use crate::error::Result;
use crate::expr::codegen::{ClientSetup, Target, Transaction};

impl Transaction {
    /// The like with ElectroDB: `token` (a JavaScript expression) sent with every send,
    /// `refused` (a JavaScript string) said of a failed child condition.
    pub(super) fn like_electro(
        &self,
        setup: &ClientSetup,
        token: &str,
        refused: &str,
    ) -> Result<Program> {
        let code = self.electro(setup, true)?;
        let writes = code.call.replace('\n', "\n  ");
        let tail = marked(LIKE_JS_TAIL, false)
            .replace(
                "error instanceof TransactionCanceledException",
                "error.name === \"TransactionCanceledException\"",
            )
            .replacen("  } catch (error) {\n", CAUGHT, 1);
        let code = format!(
            "{LIKE_JS_WORDS}import {{ randomUUID }} from \"node:crypto\";\n{}\n{LIKE_JS_STATE}const TOKEN = {token};\nconst REFUSED = {refused};\nconst transaction = service.transaction.write(({{ item }}) => [\n  {writes},\n]);\nlet last;\nconst SENDS = {SENDS};\nfor (let attempt = 1; attempt <= SENDS; attempt++) {{\n  try {{\n    const result = await transaction.go({{ token: TOKEN }});\n{ANSWERED}{tail}",
            code.head,
        );
        Ok(Program {
            target: Target::ElectroDb,
            code,
            file: "like.mjs".to_owned(),
            run: format!("npm install {PACKAGES} && node like.mjs"),
        })
    }
}

/// A cancellation, as ElectroDB answers it.
const ANSWERED: &str = "    if (result.canceled) {
      const reasons = result.data.map((r) => r.code ?? \"None\");
      const why = reasons[0] === \"ConditionalCheckFailed\" ? REFUSED : \"cancelled\";
      console.error(`${why}; nothing was written; reasons:`, JSON.stringify(reasons));
      process.exit(1);
    }
";

/// The catch's start: ElectroDB's own errors first, then the SDK's error it wraps.
const CAUGHT: &str = "  } catch (caught) {
    if (caught.isElectroError && caught.code < 4000) {
      console.error(\"not sent:\", caught.message);
      process.exit(2);
    }
    const error = caught.cause ?? caught;
";
