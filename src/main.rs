//! dynoscope's entry point: the CLI twin when a subcommand is given, the desktop app otherwise.
//!
//! `main` owns the one multi-thread tokio runtime; eframe runs on the main thread. Built without
//! the `gui` feature, the binary is the headless CLI and MCP server: it links no egui, winit or
//! GL, and without a subcommand it says so.

use std::process::ExitCode;

#[cfg(feature = "gui")]
use dynoscope_app::{DynoscopeApp, Remembered};
use dynoscope_cli::Cli;
#[cfg(feature = "gui")]
use dynoscope_core::task::Spawner;

fn main() -> ExitCode {
    let cli = Cli::parse_checked();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .thread_name("dynoscope-worker")
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            dynoscope_cli::say(format_args!(
                "dynoscope: cannot start the async runtime: {e}"
            ));
            return dynoscope_cli::Exit::Error.code();
        }
    };
    match cli.command {
        Some(command) => {
            let code = runtime.block_on(dynoscope_cli::run(
                cli.connection.spec(),
                &cli.connection,
                cli.output,
                command,
            ));
            // Everything was said and the outcome is known; a read of stdin that cannot be
            // cancelled (an MCP session's, on a terminal) must not hold the exit.
            runtime.shutdown_timeout(std::time::Duration::from_secs(1));
            code
        }
        None if cli.output.output.is_some() => {
            dynoscope_cli::say(
                "dynoscope: --output shapes a subcommand's results; give a subcommand",
            );
            dynoscope_cli::Exit::Error.code()
        }
        None => match cli.connection.check(false) {
            Ok(()) => open_window(&runtime, &cli.connection),
            Err(error) => {
                dynoscope_cli::say(format_args!("dynoscope: {error}"));
                dynoscope_cli::Exit::Error.code()
            }
        },
    }
}

/// The headless build has no window to open: it says so and what it can do instead.
#[cfg(not(feature = "gui"))]
fn open_window(_: &tokio::runtime::Runtime, _: &dynoscope_cli::ConnectionFlags) -> ExitCode {
    dynoscope_cli::say(
        "dynoscope: this is the headless build (no window); give a subcommand — `dynoscope --help` lists them",
    );
    dynoscope_cli::Exit::Error.code()
}

/// The desktop app, on the main thread.
#[cfg(feature = "gui")]
fn open_window(
    runtime: &tokio::runtime::Runtime,
    flags: &dynoscope_cli::ConnectionFlags,
) -> ExitCode {
    #[cfg(windows)]
    let_go_of_own_console();
    let mut viewport = egui::ViewportBuilder::default()
        .with_title("dynoscope")
        .with_app_id("dynoscope")
        .with_inner_size([1280.0, 800.0])
        .with_min_inner_size([640.0, 400.0]);
    // The same picture as assets/dynoscope.desktop names; a window without it still opens.
    if let Ok(icon) = eframe::icon_data::from_png_bytes(include_bytes!("../assets/dynoscope.png")) {
        viewport = viewport.with_icon(std::sync::Arc::new(icon));
    }
    // The app's state (saved connections among it) is the user's alone; a window still opens
    // when the folder cannot be narrowed, with the reason said.
    if let Some(folder) = dynoscope_core::places::data_dir()
        && let Err(e) = dynoscope_core::places::keep_to_owner(&folder)
    {
        dynoscope_cli::say(format_args!(
            "dynoscope: {}: cannot keep the app's folder to its owner: {e}",
            folder.display()
        ));
    }
    let options = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        viewport,
        ..Default::default()
    };
    let handle = runtime.handle().clone();
    let flags = flags.clone();
    // winit unwraps the X server's answer about its window: when another program destroys the
    // window (`xdotool windowclose`, a crashed window manager), that is a panic on this thread.
    // It is caught and said in words, not as a backtrace.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let on_main = std::thread::current().name() == Some("main");
        if !(on_main && window_gone(&panic_text(info.payload()))) {
            default_hook(info);
        }
    }));
    let run = std::panic::AssertUnwindSafe(|| run_app(options, handle, flags));
    let result = match std::panic::catch_unwind(run) {
        Ok(result) => result,
        Err(payload) => {
            let text = panic_text(payload.as_ref());
            if !window_gone(&text) {
                std::panic::resume_unwind(payload);
            }
            // A write may have been on its way when the window went: its outcome is unknown.
            dynoscope_cli::say(format_args!(
                "dynoscope: the window was destroyed by another program ({text}); dynoscope \
                 stopped. A write on its way then may or may not have been applied: read it \
                 back (`dynoscope get …`); what the window showed since its last autosave \
                 (every 30 s) is not kept."
            ));
            return dynoscope_cli::Exit::Unknown.code();
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            dynoscope_cli::say(format_args!("dynoscope: cannot open the window: {e}"));
            dynoscope_cli::Exit::Error.code()
        }
    }
}

/// dynoscope.exe is a console program, so that cmd and PowerShell wait for a subcommand, show
/// what it prints and take its exit code. Opened from Explorer or the Start menu, Windows gives
/// it a console of its own, which only the window's user would see: it is let go (and closes)
/// before the window opens. From a shell, the console is the shell's too, and is kept.
#[cfg(all(feature = "gui", windows))]
#[expect(
    unsafe_code,
    reason = "the console's processes and letting it go are Win32 calls with no safe wrapper"
)]
fn let_go_of_own_console() {
    use windows_sys::Win32::System::Console::{FreeConsole, GetConsoleProcessList};
    let mut attached = [0u32; 2];
    // SAFETY: a buffer of our own, with its true length.
    let ours_alone = unsafe { GetConsoleProcessList(attached.as_mut_ptr(), 2) } == 1;
    if ours_alone {
        // SAFETY: takes nothing; what this process prints after it goes nowhere, as from
        // Explorer it would have anyway.
        unsafe { FreeConsole() };
    }
}

/// A panic's message, when it has one.
#[cfg(feature = "gui")]
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

/// Whether a panic's message is the X server refusing a request about the app's window: once
/// another program destroyed it, winit's next request about it (`TranslateCoordinates`,
/// `GetGeometry`, …) is answered BadWindow or BadDrawable, and unwrapped.
#[cfg(feature = "gui")]
fn window_gone(text: &str) -> bool {
    text.contains("X11(X11Error")
        && ["error_kind: Window", "error_kind: Drawable"]
            .iter()
            .any(|kind| text.contains(kind))
}

/// The window's event loop, until it closes.
#[cfg(feature = "gui")]
fn run_app(
    options: eframe::NativeOptions,
    handle: tokio::runtime::Handle,
    flags: dynoscope_cli::ConnectionFlags,
) -> eframe::Result {
    eframe::run_native(
        "dynoscope",
        options,
        Box::new(move |cc| {
            let saved = cc.storage.and_then(|s| s.get_string(eframe::APP_KEY));
            let read: Option<Remembered> = cc
                .storage
                .and_then(|s| eframe::get_value(s, eframe::APP_KEY));
            // Settings that no longer read are kept aside, never overwritten in silence.
            let unreadable = saved.filter(|_| read.is_none());
            let mut remembered = read.unwrap_or_default();
            // The connections' marks, kept where the command line reads them too.
            let marks = dynoscope_core::connection::Marks::path().map(|path| {
                let read = dynoscope_core::connection::Marks::read(&path);
                (path, read)
            });
            // Flags win; otherwise the last connection; otherwise AWS if configured, else sandbox.
            let spec = match (&remembered.connection, flags.any()) {
                (Some(spec), false) => spec.clone(),
                _ => flags.spec(),
            };
            let ctx = cc.egui_ctx.clone();
            let spawner = Spawner::new(handle, move || ctx.request_repaint());
            if let Some((_, Ok(Some(stored)))) = &marks {
                remembered.take_marks(stored.clone());
            }
            let mut app = DynoscopeApp::new(spawner, spec, flags.options(), remembered)
                .with_unreadable(unreadable);
            match marks {
                Some((path, Ok(stored))) => app = app.with_marks_file(path, stored),
                Some((path, Err(error))) => app = app.with_unreadable_marks(path, &error),
                None => {}
            }
            Ok(Box::new(app))
        }),
    )
}
