//! Shell completions and man pages, made from the command line's own definition (as ripgrep
//! makes its own from its binary), so they never disagree with what the binary takes:
//! `dynoscope completions bash|zsh|fish|powershell|elvish` and `dynoscope man [SUBCOMMAND…]`
//! (one page, on stdout) or `dynoscope man --out DIR` (a page for every command, written there,
//! as a package installs them).

use std::io::Write as _;

use clap::{Command, CommandFactory};

use crate::args::Cli;
use crate::docs_args::{CompletionsArgs, ManArgs};
use crate::exit::Exit;
use crate::output::Output;
use dynoscope_core::error::{Error, Result};
use dynoscope_core::files::{IfExists, write_file};

/// The command line as the binary parses it, its name `dynoscope`.
fn command() -> Command {
    let mut command = Cli::command();
    command.build();
    command
}

/// The completion script for `args.shell`, on stdout.
pub(crate) fn completions(args: &CompletionsArgs, out: &mut Output) -> Exit {
    let mut command = command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "dynoscope", &mut script);
    out.bytes(&script);
    Exit::Done
}

/// One man page on stdout, or every page into a folder.
pub(crate) fn man(args: &ManArgs, out: &mut Output) -> Result<Exit> {
    let command = command();
    if let Some(dir) = &args.out {
        let written = write_pages(&command, dir, args.force)?;
        out.note(format_args!(
            "dynoscope: {} man pages written to {}",
            written,
            dir.display()
        ));
        return Ok(Exit::Done);
    }
    let mut page = &command;
    for word in &args.subcommand {
        let name = title(page).replace('-', " ");
        page = page.find_subcommand(word).ok_or_else(|| {
            Error::Invalid(format!(
                "`{name}` has no subcommand `{word}`; `{name} --help` lists them"
            ))
        })?;
    }
    out.bytes(&render(page)?);
    Ok(Exit::Done)
}

/// The name of `page` as its man page is titled: `dynoscope-table-export` (a built command's
/// subcommands carry their parents' names).
fn title(page: &Command) -> String {
    (page.get_display_name()).map_or_else(|| page.get_name().to_owned(), str::to_owned)
}

/// The roff of `page`. Every page's footer names dynoscope and its version (a subcommand has
/// none of its own: its `.TH` would read `"export "`).
fn render(page: &Command) -> Result<Vec<u8>> {
    let mut roff = Vec::new();
    clap_mangen::Man::new(page.clone())
        .source(format!("dynoscope {}", env!("CARGO_PKG_VERSION")))
        .manual("dynoscope manual")
        .render(&mut roff)
        .map_err(|e| Error::Invalid(format!("the man page of {}: {e}", title(page))))?;
    Ok(roff)
}

/// Every page of `top` and its subcommands (help left out) written into `dir`; how many.
fn write_pages(top: &Command, dir: &std::path::Path, force: bool) -> Result<usize> {
    if dir.exists() && !dir.is_dir() {
        return Err(Error::Invalid(format!(
            "{} is not a folder: the man pages go into a folder (it is made when missing)",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::Invalid(format!("{}: cannot make the folder: {e}", dir.display())))?;
    let if_exists = if force {
        IfExists::Replace
    } else {
        IfExists::Refuse
    };
    let mut pages = vec![top];
    let mut written = 0;
    while let Some(page) = pages.pop() {
        let roff = render(page)?;
        let file = dir.join(format!("{}.1", title(page)));
        write_file(&file, if_exists, |out| out.write_all(&roff))?;
        written += 1;
        pages.extend(page.get_subcommands().filter(|s| s.get_name() != "help"));
    }
    Ok(written)
}

/// The whole CLI reference as a user reads it: every command's `--help`, parents first, in the
/// order `--help` lists them (the `help` subcommands left out).
#[cfg(test)]
fn reference() -> String {
    let mut text = String::new();
    let mut pages = vec![(command().get_name().to_owned(), command())];
    while let Some((name, mut page)) = pages.pop() {
        let help = page.render_long_help().to_string();
        text.push_str(&format!("## {name}\n\n"));
        // Lines as printed, less the spaces clap leaves at the end of some.
        for line in help.lines() {
            text.push_str(line.trim_end());
            text.push('\n');
        }
        text.push('\n');
        let subcommands: Vec<_> = page
            .get_subcommands()
            .filter(|s| s.get_name() != "help")
            .map(|s| (format!("{name} {}", s.get_name()), s.clone()))
            .collect();
        pages.extend(subcommands.into_iter().rev());
    }
    text
}

#[cfg(test)]
mod tests {
    /// A change to anything a user reads in `--help` is a reviewed diff of
    /// `snapshots/dynoscope_cli__docs__tests__cli_reference.snap` (`cargo insta review`).
    #[test]
    fn cli_reference() {
        let reference = super::reference();
        assert!(
            reference.contains("## dynoscope table export\n"),
            "subcommands walked"
        );
        insta::assert_snapshot!("cli_reference", reference);
    }
}
