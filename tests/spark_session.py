"""One local Spark for the spark tier: a session-scoped ``spark`` fixture (a ``SparkSession`` on
``local[2]``, no UI, two shuffle partitions, bound to 127.0.0.1, its logs quiet, every file it
writes under the run's temporary folder).

Starting Spark takes seconds (a JVM), so every spark test of a run shares one session, stopped
at the end. A test module takes it with ``from tests.spark_session import spark`` and marks
itself ``pytest.mark.spark``; Java 17 and pyspark must be there (the spark tier is never
skipped: a missing Spark fails).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: Only the log lines of a failure: Spark's own chatter (task warnings, a cancelled job's
#: stack traces) is not a test's output.
LOG_LEVEL = "OFF"
#: Spark's log configuration from the JVM's start: errors only (no start-up warnings). The
#: logger of PySpark's gateway (a "shell" to Spark) has the root's level too, so that Spark
#: does not print "Setting default log level to "WARN"" as it starts.
QUIET_LOG4J = """\
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = stderr
appender.stderr.type = Console
appender.stderr.name = stderr
appender.stderr.target = SYSTEM_ERR
appender.stderr.layout.type = PatternLayout
appender.stderr.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n%ex
logger.shell.name = org.apache.spark.api.python.PythonGatewayServer
logger.shell.level = error
"""


@pytest.fixture(scope="session")
def spark(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The run's local SparkSession (its scratch, warehouse and Derby files in a folder of
    the run's temporary folder)."""
    session = start(tmp_path_factory.mktemp("spark"))
    try:
        yield session
    finally:
        session.stop()


def start(folder: Path) -> Any:
    """A local SparkSession as the tier's (quiet, no UI, ``local[2]``), its files in ``folder``
    (also what a test's own fresh process starts, to see a cold Spark)."""
    from pyspark.sql import SparkSession

    scratch, warehouse = folder / "scratch", folder / "warehouse"
    scratch.mkdir(exist_ok=True)
    logging = folder / "log4j2.properties"  # quiet from the JVM's start (before setLogLevel)
    logging.write_text(QUIET_LOG4J)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    session = (SparkSession.builder.master("local[2]").appName("dial-notebook-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", "2")
               .config("spark.driver.host", "127.0.0.1")
               .config("spark.driver.bindAddress", "127.0.0.1")
               .config("spark.local.dir", str(scratch))
               .config("spark.sql.warehouse.dir", str(warehouse))
               .config("spark.driver.extraJavaOptions",
                       f"-Djava.io.tmpdir={scratch} -Dderby.system.home={folder} "
                       f"-Dlog4j2.configurationFile={logging.as_uri()}")
               .getOrCreate())
    session.sparkContext.setLogLevel(LOG_LEVEL)
    return session
