"""Qt item models over engine results. Each passes pytest-qt's qtmodeltester."""


from desktop.models.document_list import DocumentFilterProxyModel, DocumentListModel
from desktop.models.span_table import SpanTableModel

__all__ = ["DocumentListModel", "DocumentFilterProxyModel", "SpanTableModel"]
