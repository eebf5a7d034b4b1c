//! `dynoscope add`: a counter edit from the shell, planned, sent and reported by the same core
//! code as the app's, in the same words.

use crate::args::AddArgs;
use crate::context::Ctx;
use crate::exit::{Exit, said};
use dynoscope_core::error::Result;
use dynoscope_core::spec::AddSpec;

/// Run the edit (`confirmed`: `--yes`) and print the report on stdout; an error before
/// anything could apply is returned, to be printed once on stderr. Interrupted before it is
/// sent, nothing is sent; once sent, its answer is waited for and said.
pub(crate) async fn add(cx: &mut Ctx<'_>, args: AddArgs) -> Result<Exit> {
    let (connection, confirmed, stop) = (cx.connection, cx.confirmed, cx.stop);
    let out = &mut *cx.out;
    let spec = AddSpec {
        table: args.table.clone(),
        key: crate::flags::key_spec(args.keys.iter().map(String::as_str))?,
        attribute: args.attr.clone(),
        delta: args.delta.clone(),
        mode: args.mode,
        create: args.create,
    };
    let report = spec.run(connection, confirmed, stop).await?;
    said(out, &report)
}
