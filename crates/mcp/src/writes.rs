//! The tools that write, each only when the server was started with `--allow-writes`, and each
//! through the write gateway: the target fixed when it is planned, sent once (again only when
//! safe), its outcome applied, refused or unknown. Without `--allow-writes`, nothing is sent.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router};

use crate::server::{Answer, Server};
use dynoscope_core::counter::EditReport;
use dynoscope_core::error::Result;
use dynoscope_core::likes::{LikeOp, LikeReport};
use dynoscope_core::partiql::StatementReport;
use dynoscope_core::report::Answered;
use dynoscope_core::spec::{
    AddSpec, DeleteSpec, ItemWrite, LikeSpec, PutSpec, StatementSpec, TallyRepair, TallySpec,
};

#[tool_router(router = write_tools, vis = "pub(super)")]
impl Server {
    /// Add to a counter.
    #[tool(
        description = "Add `delta` (negative to subtract) to one item's number attribute: mode add (ADD, atomic; never sent again once it may have reached the server), set (SET if_not_exists + delta) or exact (SET on the condition that the value is still the one read; safe to retry). Reads the attribute first (1 RCU), then one UpdateItem (1 WCU per 1 KB). Needs --allow-writes.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<EditReport>>(),
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false
        )
    )]
    async fn add(&self, Parameters(spec): Parameters<AddSpec>) -> CallToolResult {
        self.answer("add", &spec, async {
            let (connection, confirmed) = self.writer()?;
            let report = spec.run(connection, confirmed, &self.shared.stop).await?;
            Answer::of(&report)
        })
        .await
    }

    /// Like a parent.
    #[tool(
        description = "Like a parent as `user`: one TransactWriteItems putting the child (sort key child_prefix + user) only if absent and adding 1 to the parent's tally, with an idempotency token (`token`, or a fresh one): sent again with the same token, it applies once. About 4 WCU (a transaction costs twice), plus reads of the tally and children before and after. Ending `refused` when already liked or the parent is missing. Needs --allow-writes.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<LikeReport>>(),
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true
        )
    )]
    async fn like(&self, Parameters(spec): Parameters<LikeSpec>) -> CallToolResult {
        self.answer("like", &spec, self.like_as(LikeOp::Like, &spec))
            .await
    }

    /// Unlike a parent.
    #[tool(
        description = "Unlike: one TransactWriteItems deleting the child if present and adding -1 to the parent's tally, with an idempotency token. About 4 WCU, plus reads before and after. Ending `refused` when there was no like. Needs --allow-writes.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<LikeReport>>(),
        annotations(
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true
        )
    )]
    async fn unlike(&self, Parameters(spec): Parameters<LikeSpec>) -> CallToolResult {
        self.answer("unlike", &spec, self.like_as(LikeOp::Unlike, &spec))
            .await
    }

    /// Repair a drifted tally.
    #[tool(
        description = "Repair one parent's drifted tally: counts its children (a COUNT Query), then sets the tally to the count only if it still holds the value read (a conditional UpdateItem, 1 WCU), then checks again. A tally that moved meanwhile is not overwritten (ending `refused`). Needs --allow-writes.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<TallyRepair>>(),
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true
        )
    )]
    async fn repair(&self, Parameters(spec): Parameters<TallySpec>) -> CallToolResult {
        self.answer("repair", &spec, async {
            let (connection, confirmed) = self.writer()?;
            let info = self.describe(&spec.table).await?;
            let stop = &self.shared.stop;
            Answer::of(&spec.repair(connection, &info, confirmed, stop).await?)
        })
        .await
    }

    /// Put one item.
    #[tool(
        description = "Put one whole item (`item` as DynamoDB JSON text), replacing any item with its key unless `create_only`. One PutItem: 1 WCU per 1 KB (of the larger of the old and new item). Checked before sending as DynamoDB would (types, sizes, keys). Needs --allow-writes.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<ItemWrite>>(),
        annotations(
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true
        )
    )]
    async fn put_item(&self, Parameters(spec): Parameters<PutSpec>) -> CallToolResult {
        self.answer("put_item", &spec, async {
            let (connection, confirmed) = self.writer()?;
            spec.item()?;
            let info = self.describe(&spec.table).await?;
            let written = spec.run(connection, &info, confirmed, &self.shared.stop);
            Answer::of(&written.await?)
        })
        .await
    }

    /// Delete one item.
    #[tool(
        description = "Delete one item by its whole key (DeleteItem): 1 WCU per 1 KB of the item deleted; applied also when there was no such item. Needs --allow-writes.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<ItemWrite>>(),
        annotations(
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true
        )
    )]
    async fn delete_item(&self, Parameters(spec): Parameters<DeleteSpec>) -> CallToolResult {
        self.answer("delete_item", &spec, async {
            let (connection, confirmed) = self.writer()?;
            let info = self.describe(&spec.table).await?;
            let written = spec.run(connection, &info, confirmed, &self.shared.stop);
            Answer::of(&written.await?)
        })
        .await
    }

    /// A PartiQL write.
    #[tool(
        description = "Run one PartiQL INSERT, UPDATE or DELETE (ExecuteStatement) with `?` parameters as DynamoDB JSON, sent once through the write gateway (never again after a lost answer). 1 WCU per 1 KB written. A SELECT is refused here (partiql_select reads). Needs --allow-writes.",
        output_schema = rmcp::handler::server::tool::schema_for_output::<Answered<StatementReport>>(),
        annotations(
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false
        )
    )]
    async fn partiql_write(&self, Parameters(spec): Parameters<StatementSpec>) -> CallToolResult {
        self.answer("partiql_write", &spec, async {
            let (connection, confirmed) = self.writer()?;
            Answer::of(&spec.write(connection, confirmed, &self.shared.stop).await?)
        })
        .await
    }
}

impl Server {
    async fn like_as(&self, op: LikeOp, spec: &LikeSpec) -> Result<Answer> {
        let (connection, confirmed) = self.writer()?;
        let report = spec
            .run(connection, op, confirmed, &self.shared.stop)
            .await?;
        Answer::of(&report)
    }
}
