//! The whole runs the CLI and the MCP server share, each from its spec: the table described,
//! the spec planned against it, then the one reader or the one write gateway. Here, above the
//! domains they call, so that no domain module needs the specs.

use crate::cancel::{CancelToken, not_stopped, unless_stopped};
use crate::connection::Connection;
use crate::counter::{EditReport, plan_edit, update_counter};
use crate::error::Result;
use crate::expr::codegen::{Program, Target};
use crate::likes::{LikeOp, LikeReport, like_and_observe, like_request, now_secs};
use crate::read;
use crate::spec::{AddSpec, LikeSpec, SqlLoad, TallySpec};
use crate::sql::SqlSession;
use crate::tally;
use crate::write::Destination;

impl AddSpec {
    /// Run the edit (`confirmed`: the user said yes beforehand). An error before anything could be
    /// sent is returned; once sent, the report says how it ended. Stopped before it is sent,
    /// nothing is sent.
    pub async fn run(
        &self,
        connection: &Connection,
        confirmed: bool,
        stop: &CancelToken,
    ) -> Result<EditReport> {
        let spec = self;
        let reader = connection.reader();
        let info = read::describe_unless_stopped(&reader, &spec.table, stop).await?;
        // Checked before anything is read or sent.
        let (mut item, request) = spec.plan(&info)?;
        let stored = unless_stopped(
            stop,
            "GetItem",
            read::read_attribute(&reader, &info.name, &item, &request.attribute),
        )
        .await?;
        if let Some(stored) = stored {
            item.insert(request.attribute.clone(), stored);
        }
        let destination = Destination::of(connection);
        let plan = plan_edit(&destination, &info, &item, &request, spec.mode)?;
        not_stopped(stop, "UpdateItem")?;
        let outcome = update_counter(connection, &plan, confirmed).await;
        Ok(EditReport {
            plan,
            outcome,
            pricing: connection.pricing(&info),
        })
    }
}

impl LikeSpec {
    /// Run the like or unlike `op` (`confirmed`: the user said yes beforehand). An error before anything
    /// was sent is returned; once sent, the report says how it ended.
    pub async fn run(
        &self,
        connection: &Connection,
        op: LikeOp,
        confirmed: bool,
        stop: &CancelToken,
    ) -> Result<LikeReport> {
        let spec = self;
        let info = read::describe_unless_stopped(&connection.reader(), &spec.table, stop).await?;
        let (target, user) = spec.plan(&info)?;
        let request = like_request(
            &Destination::of(connection),
            op,
            &target,
            &user,
            spec.token.clone(),
            now_secs(),
        )?;
        // Refused before anything is read when a confirmation is needed and not given.
        request.write_plan().confirmation().check(confirmed)?;
        not_stopped(stop, "TransactWriteItems")?;
        like_and_observe(connection, &info, request, confirmed, stop).await
    }

    /// The like or unlike `op` as a whole program in `target`, for the connection it is made
    /// on; nothing is sent (one DescribeTable reads the key names).
    pub async fn program(
        &self,
        connection: &Connection,
        op: LikeOp,
        target: Target,
        stop: &CancelToken,
    ) -> Result<Program> {
        let info = read::describe_unless_stopped(&connection.reader(), &self.table, stop).await?;
        let (like_target, user) = self.plan(&info)?;
        let destination = Destination::of(connection);
        let token = self.token.clone();
        let request = like_request(&destination, op, &like_target, &user, token, now_secs())?;
        request.program(target, true)
    }
}

impl TallySpec {
    /// The reconcile (of `pk`, or of every parent) as a whole program in `target`, for the
    /// connection it is made on; nothing is read but the table's description. Written for
    /// string keys and children in the parent's partition.
    pub async fn program(
        &self,
        connection: &Connection,
        target: Target,
        stop: &CancelToken,
    ) -> Result<Program> {
        let info = read::describe_unless_stopped(&connection.reader(), &self.table, stop).await?;
        let rule = self.rule.tally_rule()?;
        let setup = connection.client_setup();
        tally::program(&info, &rule, self.pk.clone(), target, &setup)
    }
}

impl SqlLoad {
    /// Read one table or partition through the one reader and load it into `session`; what was
    /// loaded, in words.
    pub async fn load_into(
        &self,
        connection: &Connection,
        session: &mut SqlSession,
    ) -> Result<String> {
        let load = self;
        let reader = connection.reader();
        let info = read::describe_table(&reader, &load.table).await?;
        let read = read::read_table(&reader, &info, load.partition.as_deref()).await?;
        let loaded = session.load_rows(&load.name, &info.key_names(), &read.rows)?;
        Ok(format!(
            "{} ({} of {}: {})",
            loaded.summary(),
            read.request.op(),
            load.table,
            crate::report::read_summary(
                read.rows.len(),
                read.pages,
                &connection.pricing(&info).read(read.rcu)
            )
        ))
    }
}
