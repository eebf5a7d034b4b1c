//! Managing tables in the app: a table created from the Create table window (an index added,
//! what DynamoDB would refuse said first), its settings changed in the Table view, a partition's
//! likes counted and deleted once their count is typed back, and the table deleted once its
//! name is typed — each checked on the server.

use egui::accesskit::Role;

use crate::*;

fn table_exists(outside: &Outside, name: &str) -> Option<bool> {
    outside.runtime.block_on(async {
        match outside
            .client
            .describe_table()
            .table_name(name)
            .send()
            .await
        {
            Ok(out) => out.table.and_then(|t| t.deletion_protection_enabled),
            Err(_) => None,
        }
    })
}

fn open_table_view(h: &mut egui_kittest::Harness<'_, DynoscopeApp>, table: &str) {
    // The list's entry comes first: the open table's heading has the same name.
    h.query_all_by_label(table).next().unwrap().click();
    step_until(h, "the table opened", |h| has_label(h, "Table"));
    h.get_by_role_and_label(Role::Button, "Table").click();
    let heading = format!("Table {table}");
    step_until(h, "the Table view", |h| has_label(h, &heading));
    // Its sections once the table has been read whole.
    step_until(h, "the table read", |h| has_label(h, "Delete items"));
}

/// Create Posts from the Create table window, a bad name refused first; another name typed
/// forgets its result.
fn create_posts(h: &mut egui_kittest::Harness<'_, DynoscopeApp>, outside: &Outside) {
    // Create: a bad name is refused in words before anything is sent.
    h.get_by_label("New table…").click();
    step_until(h, "the Create table window", |h| has_label(h, "Table name"));
    type_into(h, "Table name", "P");
    step_until(h, "the name refused", |h| {
        has_label_containing(h, "table name `P`: 3 to 255 characters")
    });
    type_into(h, "Table name", "osts");
    h.get_by_label("+ Global index").click();
    step_until(h, "the summary", |h| {
        has_label(h, "Posts: PK (S) / SK (S), on demand, 1 global index")
    });
    h.get_by_role_and_label(Role::Button, "Create table")
        .click();
    step_until(h, "the table created", |h| {
        has_label_containing(h, "applied: a new table Posts")
    });
    assert_eq!(
        table_exists(outside, "Posts"),
        Some(false),
        "created, unprotected"
    );
    // Another name typed: the result of Posts is not shown beside it.
    type_into(h, "Table name", "2");
    step_until(h, "the old result forgotten", |h| {
        has_label(h, "Posts2: PK (S) / SK (S), on demand, 1 global index")
            && !has_label_containing(h, "applied: a new table Posts")
    });
}

/// Social's likes of POST#a91f, counted, then deleted with their count typed back: none left on
/// the server.
fn delete_the_likes_of_a_post(h: &mut egui_kittest::Harness<'_, DynoscopeApp>, outside: &Outside) {
    // Social's likes of POST#a91f, counted, then deleted with their count typed back.
    open_table_view(h, "Social");
    h.get_by_label("Delete items").click();
    step_until(h, "the delete form", |h| has_label(h, "One partition"));
    h.get_by_label("One partition").click();
    h.step();
    type_into(h, "PK =", "POST#a91f");
    type_into(h, "SK begins with", "LIKE#");
    h.get_by_role_and_label(Role::Button, "Count (dry run)")
        .click();
    step_until(h, "the count", |h| {
        has_label(h, "3 items in Social would be deleted")
    });
    assert!(has_label(h, "  PK = POST#a91f · SK = LIKE#USER#7c20"));
    type_into(h, "Type 3 to delete them", "3");
    h.get_by_role_and_label(Role::Button, "Delete 3 items")
        .click();
    step_until(h, "the delete's report", |h| {
        has_label_containing(h, "3 items deleted from Social")
    });
    let left = outside.runtime.block_on(async {
        outside
            .client
            .query()
            .table_name("Social")
            .key_condition_expression("PK = :p AND begins_with(SK, :s)")
            .expression_attribute_values(
                ":p",
                aws_sdk_dynamodb::types::AttributeValue::S("POST#a91f".into()),
            )
            .expression_attribute_values(
                ":s",
                aws_sdk_dynamodb::types::AttributeValue::S("LIKE#".into()),
            )
            .send()
            .await
            .unwrap()
            .count
    });
    assert_eq!(left, 0);
}

#[test]
fn a_table_is_created_changed_emptied_and_deleted_from_the_app() {
    let outside = outside_sandbox();
    let mut app = start(endpoint(outside.sandbox.endpoint()), Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1400.0, 1100.0));
    step_until(h, "the tables", |h| has_label(h, "New table…"));

    create_posts(h, &outside);

    // The new table opens; its Table view turns deletion protection on.
    h.get_by_role_and_label(Role::Button, "Close window")
        .click();
    open_table_view(h, "Posts");
    // Adding a global index starts from nothing typed: no index is one click away.
    assert!(!has_label(h, "Add index"), "nothing typed, nothing to add");
    assert!(has_label_containing(
        h,
        "Type the index's name and its partition key"
    ));
    h.get_by_role_and_label(Role::Button, "Turn protection on")
        .click();
    step_until(h, "protection on", |h| {
        has_label_containing(h, "deletion protection turned on")
    });
    assert_eq!(table_exists(&outside, "Posts"), Some(true));

    delete_the_likes_of_a_post(h, &outside);

    // Posts: protected, so Delete table explains; off, then deleted by its typed name.
    open_table_view(h, "Posts");
    h.get_by_label("Delete table").click();
    step_until(h, "the protection explained", |h| {
        has_label_containing(h, "Deletion protection is on")
    });
    h.get_by_role_and_label(Role::Button, "Turn protection off")
        .click();
    step_until(h, "protection off", |h| {
        has_label_containing(h, "deletion protection turned off")
    });
    step_until(h, "the typed name asked", |h| {
        has_label(h, "Type the table's name")
    });
    type_into(h, "Type the table's name", "Posts");
    h.get_by_role_and_label(Role::Button, "Delete table")
        .click();
    step_until(h, "the table gone from the list", |h| {
        !has_label(h, "Posts")
    });
    // Said afterwards on the screen that follows.
    assert!(has_label_containing(
        h,
        "Table Posts is gone: it was deleted"
    ));
    assert_eq!(
        table_exists(&outside, "Posts"),
        None,
        "deleted on the server"
    );
    drop(app);
}

/// On moto's server (which has backups): the Table view's Backups makes one, lists it, and
/// restores it into a new table that the list of tables then shows.
#[test]
fn a_backup_is_made_listed_and_restored_from_the_table_view() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (moto, table) = runtime.block_on(async {
        let (moto, connection) = crate::common::moto::moto_connection().await;
        let table = crate::common::moto::table_with(&connection, "ui-backup", 4).await;
        (moto, table)
    });
    let mut app = start(endpoint(&moto.url), Some(&table));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1400.0, 1100.0));
    step_until(h, "the table", |h| has_label(h, "Table"));
    h.get_by_role_and_label(Role::Button, "Table").click();
    step_until(h, "the table read", |h| has_label(h, "Backups"));
    // Settings folded, so that the backups fit on screen.
    h.get_by_label("Settings").click();
    h.step();
    h.step();
    h.get_by_label("Backups").click();
    step_until(h, "the backups section", |h| has_label(h, "Backup name"));
    type_into(h, "Backup name", "before-likes");
    h.get_by_role_and_label(Role::Button, "Create backup")
        .click();
    step_until(h, "the backup made", |h| {
        has_label_containing(h, "an on-demand backup named before-likes made")
    });
    // The run's report (its last line, the backup described again) is in before the list is
    // asked for: nothing above the button moves after it, so the click lands on it.
    step_until(h, "the backup's report", |h| {
        has_label_containing(h, "backup: before-likes of table")
    });
    h.get_by_role_and_label(Role::Button, "List backups")
        .click();
    // The list's own line (the report above names the backup too).
    step_until(h, "the backups listed", |h| {
        has_label_containing(h, "listed ") && has_label(h, "Restore into the new table")
    });
    let listed = format!("before-likes of table {table}: AVAILABLE");
    assert!(has_label_containing(h, &listed));
    let restored = format!("{table}-copy");
    for _ in 0..5 {
        h.step();
    }
    type_into(h, "Restore into the new table", &restored);
    h.get_by_role_and_label(Role::Button, "Restore").click();
    step_until(h, "the restore applied", |h| {
        has_label_containing(
            h,
            &format!("applied: a new table {restored}, restored from backup before-likes"),
        )
    });
    step_until(h, "the restored table listed", |h| {
        h.query_all_by_label(&restored).next().is_some()
    });
    drop(app);
    drop(moto);
}

/// The grid's rows as what a delete takes: the selected row alone, then every row of the tab,
/// each read again when counted.
#[test]
fn the_grid_s_selected_rows_and_a_tab_s_rows_are_deleted() {
    let outside = outside_sandbox();
    let mut app = start(endpoint(outside.sandbox.endpoint()), Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1400.0, 1100.0));
    query_partition(h, "POST#a91f");
    step_until(h, "the likes", |h| has_label(h, "LIKE#USER#7c20"));
    count_the_selected_row(h, "LIKE#USER#7c20");
    step_until(h, "the count", |h| {
        has_label(h, "1 item in Social would be deleted")
    });
    assert!(has_label(h, "  PK = POST#a91f · SK = LIKE#USER#7c20"));
    type_into(h, "Type 1 to delete them", "1");
    h.get_by_role_and_label(Role::Button, "Delete 1 items")
        .click();
    step_until(h, "the report", |h| {
        has_label_containing(h, "1 item deleted from Social")
    });

    // The deleted row left the tab: 3 rows are offered now, and the grid no longer shows it.
    step_until(h, "the row gone from the tab", |h| {
        has_label(h, "The 3 rows of the Browse tab")
    });
    h.get_by_role_and_label(Role::Button, "Browse").click();
    h.step();
    assert!(
        !has_label(h, "LIKE#USER#7c20"),
        "the deleted row left the grid"
    );
    assert!(has_label(h, "META"));
    h.get_by_role_and_label(Role::Button, "Table").click();
    step_until(h, "the table view", |h| {
        has_label(h, "The 3 rows of the Browse tab")
    });
    h.get_by_label("The 3 rows of the Browse tab").click();
    h.step();
    h.get_by_role_and_label(Role::Button, "Count (dry run)")
        .click();
    step_until(h, "the count", |h| {
        has_label(h, "3 items in Social would be deleted")
    });
    type_into(h, "Type 3 to delete them", "3");
    h.get_by_role_and_label(Role::Button, "Delete 3 items")
        .click();
    step_until(h, "the report", |h| {
        has_label_containing(h, "3 items deleted from Social")
    });
    h.get_by_role_and_label(Role::Button, "Browse").click();
    h.step();
    for gone in ["META", "LIKE#USER#0109", "LIKE#USER#7c20"] {
        assert!(!has_label(h, gone), "{gone} left the grid");
    }
    let left = outside.runtime.block_on(async {
        outside
            .client
            .query()
            .table_name("Social")
            .key_condition_expression("PK = :p")
            .expression_attribute_values(
                ":p",
                aws_sdk_dynamodb::types::AttributeValue::S("POST#a91f".into()),
            )
            .send()
            .await
            .unwrap()
            .count
    });
    assert_eq!(left, 0);
    drop(app);
}

/// Videos cloned into another table on this connection from the Table view: created, copied,
/// checked equal, and listed.
#[test]
fn a_table_is_cloned_from_the_table_view() {
    let outside = outside_sandbox();
    let mut app = start(endpoint(outside.sandbox.endpoint()), Some("Videos"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1400.0, 1100.0));
    step_until(h, "the table", |h| has_label(h, "Table"));
    h.get_by_role_and_label(Role::Button, "Table").click();
    step_until(h, "the table read", |h| has_label(h, "Clone"));
    h.get_by_label("Settings").click();
    h.step();
    h.step();
    h.get_by_label("Clone").click();
    step_until(h, "the clone form", |h| has_label(h, "Into table"));
    h.get_by_role_and_label(Role::Button, "Clone").click();
    step_until(h, "the check", |h| {
        has_label(
            h,
            "check: every partition holds as many items on both sides",
        )
    });
    assert!(has_label_containing(h, "clone of Videos into Videos-copy"));
    step_until(h, "the copy listed", |h| has_label(h, "Videos-copy"));
    let copied = outside.runtime.block_on(async {
        outside
            .client
            .scan()
            .table_name("Videos-copy")
            .select(aws_sdk_dynamodb::types::Select::Count)
            .send()
            .await
            .unwrap()
            .count
    });
    assert!(copied > 0);

    // Again into the copy, which holds items now: asked first, even on this machine.
    h.get_by_role_and_label(Role::Button, "Clone").click();
    step_until(h, "the question", |h| {
        has_label_containing(h, "Table Videos-copy already holds items")
    });
    assert!(!has_label(
        h,
        "check: every partition holds as many items on both sides"
    ));
    h.get_by_role_and_label(Role::Button, "Confirm write")
        .click();
    step_until(h, "the check again", |h| {
        has_label(
            h,
            "check: every partition holds as many items on both sides",
        )
    });
    drop(app);
}
