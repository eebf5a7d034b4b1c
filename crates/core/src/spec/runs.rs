//! The whole runs the CLI and the MCP server share, each from its spec: the table described,
//! the spec planned against it, then the one reader or the one write gateway. Here, above the
//! domains they call, so that no domain module needs the specs.

use crate::cancel::{CancelToken, not_stopped, unless_stopped};
use crate::condition::ScalarType;
use crate::connection::Connection;
use crate::counter::{EditReport, plan_edit, update_counter};
use crate::error::{Error, Result};
use crate::expr::codegen::{Program, ReconcileShape, Target};
use crate::likes::{LikeOp, LikeReport, like_and_observe, like_request, now_secs};
use crate::read;
use crate::spec::{AddSpec, LikeSpec, SqlLoad, TallySpec};
use crate::sql::SqlSession;
use crate::tally::ChildSource;
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
        let refused = match op {
            LikeOp::Like => "already liked",
            LikeOp::Unlike => "no like to take back",
        };
        request
            .transaction()
            .like_program(target, &destination.client_setup(), refused)
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
        let ChildSource::SortKeyPrefix(child_prefix) = rule.children else {
            return Err(Error::Invalid(
                "a reconcile program counts children in the parent's partition (--child-prefix), not in an index".into(),
            ));
        };
        let (Some(sort), ScalarType::S) = (&info.sort, info.partition.kind) else {
            return Err(Error::Invalid(format!(
                "a reconcile program is written for a table with string partition and sort keys; {} has not",
                info.name
            )));
        };
        if sort.kind != ScalarType::S {
            return Err(Error::Invalid(format!(
                "a reconcile program is written for a string sort key; {}'s is {}",
                info.name,
                sort.kind.attr_type().tag()
            )));
        }
        let shape = ReconcileShape {
            table: info.name.clone(),
            keys: (info.partition.name.clone(), sort.name.clone()),
            tally: rule.tally,
            parent_sk: rule.parents.sort_key,
            parent_prefix: rule.parents.partition_prefix,
            child_prefix,
            only: self.pk.clone(),
        };
        shape.program(target, &connection.client_setup())
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
