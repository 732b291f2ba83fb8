"""``python -m service`` (installed: ``raysweep-server``): serve, migrate, and manage API
tokens.

Examples::

    python -m service migrate
    python -m service serve
    python -m service token create ci-bot --role member
    python -m service token grant ci-bot --project vision --role viewer
    python -m service token list
    python -m service token revoke ci-bot
"""

from __future__ import annotations

import argparse
import json
import sys

from raysweep.tokens import Role
from service.db import migrate
from service.db.session import create_db_engine, session_factory
from service.errors import DomainError
from service.settings import get_settings
from service.usecases import tokens


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m service",
        description="raysweep server. Settings come from RAYSWEEP_* environment variables "
        "(see README.md).",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("serve", help="run the API and the controller (needs a migrated DB)")
    api = commands.add_parser(
        "serve-api",
        help="an API-only process on the port of a serve process, which starts these when "
        "RAYSWEEP_API_WORKERS > 1",
    )
    api.add_argument("--parent", type=int, required=True, help="the serve process's pid")
    up = commands.add_parser("migrate", help="upgrade the database schema to the latest version")
    up.add_argument("--revision", default="head", help="target revision (default: head)")
    down = commands.add_parser("downgrade", help="downgrade the database schema")
    down.add_argument("revision", help="target revision, e.g. base")
    token = commands.add_parser("token", help="manage API tokens")
    token_commands = token.add_subparsers(dest="token_command", required=True)
    create = token_commands.add_parser("create", help="create a token and print its secret once")
    create.add_argument("name")
    create.add_argument("--role", choices=[r.value for r in Role], default=Role.member.value)
    create.add_argument(
        "--project",
        default="default",
        help="the project the role is in (default: default); an admin token has every project",
    )
    grant = token_commands.add_parser(
        "grant", help="give a token a role in another project, or take it away (--role none)"
    )
    grant.add_argument("name")
    grant.add_argument("--project", required=True)
    grant.add_argument(
        "--role", choices=[r.value for r in Role if r is not Role.admin] + ["none"], required=True
    )
    token_commands.add_parser("list", help="list tokens (never their secrets)")
    revoke = token_commands.add_parser("revoke", help="revoke a token by name")
    revoke.add_argument("name")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    settings = get_settings()
    url = settings.database_url_value
    if args.command == "serve":
        from service.server import serve  # imports Ray; token and migrate commands need not

        serve(settings)
        return 0
    if args.command == "serve-api":
        from service.server import serve_api_worker

        serve_api_worker(settings, args.parent)
        return 0
    if args.command == "migrate":
        create_db_engine(url).dispose()  # creates the SQLite directory when needed
        migrate.upgrade(url, args.revision)
        print(
            f"database at {migrate.head_revision() if args.revision == 'head' else args.revision}"
        )
        return 0
    if args.command == "downgrade":
        migrate.downgrade(url, args.revision)
        return 0
    engine = create_db_engine(url)
    migrate.check_schema(engine)
    db = session_factory(engine)
    try:
        if args.token_command == "create":
            created = tokens.create_token(db, args.name, Role(args.role), args.project)
            print(created.token)
            print(
                f"token {created.name!r} ({created.role.value}) created; the secret above is "
                "shown only once",
                file=sys.stderr,
            )
        elif args.token_command == "grant":
            role = None if args.role == "none" else Role(args.role)
            granted = tokens.grant_token(db, args.name, args.project, role)
            print(json.dumps(granted.model_dump(mode="json")))
        elif args.token_command == "list":
            for item in tokens.list_tokens(db):
                print(json.dumps(item.model_dump(mode="json")))
        else:
            revoked = tokens.revoke_token(db, args.name)
            print(f"token {revoked.name!r} revoked")
    except DomainError as error:
        print(f"error: {error.message}", file=sys.stderr)
        return 1
    return 0


def server_main() -> int:
    """``raysweep-server``: with no arguments, bring the database's schema up to date and serve
    the API and the web UI (what ``make run`` does in a checkout); with arguments, the commands
    of ``python -m service`` (``raysweep-server token create ci-bot``)."""
    argv = sys.argv[1:]
    if argv:
        return main(argv)
    migrated = main(["migrate"])
    return migrated if migrated else main(["serve"])


if __name__ == "__main__":
    sys.exit(main())
