"""The HTTP call of a tool imported from an OpenAPI document, performed for the dispatcher.

`binding` reads the plain data rendered into the project's `_generated/apis.py`; `request`
builds the request from a call's arguments (pure); `auth` adds the credentials the environment
or the caller holds; `retry` decides when to try again; `client` owns the one pooled HTTP
client of the process; `answer` turns the response into the tool result; `handler` puts them
together as the handler the dispatcher runs. Only projects with imported tools get this
package.
"""
