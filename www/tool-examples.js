// Examples of the tool-set panel: real MCP servers' `tools/list` items (from the test corpus,
// js-tests/corpus/mcp-tools.json: modelcontextprotocol/servers and github/github-mcp-server), a small clean
// set, and a set with a recursive schema, a `format: uri` and an open map.
export const toolExamples = {
 "MCP reference servers (19 tools, real listing)": {
  "tools": [
   {
    "name": "create_entities",
    "description": "Create multiple new entities in the knowledge graph",
    "inputSchema": {
     "type": "object",
     "properties": {
      "entities": {
       "type": "array",
       "items": {
        "type": "object",
        "properties": {
         "name": {
          "type": "string",
          "description": "The name of the entity"
         },
         "entityType": {
          "type": "string",
          "description": "The type of the entity"
         },
         "observations": {
          "type": "array",
          "items": {
           "type": "string"
          },
          "description": "An array of observation contents associated with the entity"
         }
        },
        "required": [
         "name",
         "entityType",
         "observations"
        ]
       }
      }
     },
     "required": [
      "entities"
     ],
     "$schema": "http://json-schema.org/draft-07/schema#"
    },
    "outputSchema": {
     "type": "object",
     "properties": {
      "entities": {
       "type": "array",
       "items": {
        "type": "object",
        "properties": {
         "name": {
          "type": "string",
          "description": "The name of the entity"
         },
         "entityType": {
          "type": "string",
          "description": "The type of the entity"
         },
         "observations": {
          "type": "array",
          "items": {
           "type": "string"
          },
          "description": "An array of observation contents associated with the entity"
         }
        },
        "required": [
         "name",
         "entityType",
         "observations"
        ],
        "additionalProperties": false
       }
      }
     },
     "required": [
      "entities"
     ],
     "$schema": "http://json-schema.org/draft-07/schema#",
     "additionalProperties": false
    }
   },
   {
    "name": "read_graph",
    "description": "Read the entire knowledge graph",
    "inputSchema": {
     "type": "object",
     "properties": {},
     "$schema": "http://json-schema.org/draft-07/schema#"
    },
    "outputSchema": {
     "type": "object",
     "properties": {
      "entities": {
       "type": "array",
       "items": {
        "type": "object",
        "properties": {
         "name": {
          "type": "string",
          "description": "The name of the entity"
         },
         "entityType": {
          "type": "string",
          "description": "The type of the entity"
         },
         "observations": {
          "type": "array",
          "items": {
           "type": "string"
          },
          "description": "An array of observation contents associated with the entity"
         }
        },
        "required": [
         "name",
         "entityType",
         "observations"
        ],
        "additionalProperties": false
       }
      },
      "relations": {
       "type": "array",
       "items": {
        "type": "object",
        "properties": {
         "from": {
          "type": "string",
          "description": "The name of the entity where the relation starts"
         },
         "to": {
          "type": "string",
          "description": "The name of the entity where the relation ends"
         },
         "relationType": {
          "type": "string",
          "description": "The type of the relation"
         }
        },
        "required": [
         "from",
         "to",
         "relationType"
        ],
        "additionalProperties": false
       }
      }
     },
     "required": [
      "entities",
      "relations"
     ],
     "$schema": "http://json-schema.org/draft-07/schema#",
     "additionalProperties": false
    }
   },
   {
    "name": "read_text_file",
    "description": "Read the complete contents of a file from the file system as text. Handles various text encodings and provides detailed error messages if the file cannot be read. Use this tool when you need to examine the contents of a single file. Use the 'head' parameter to read only the first N lines of a file, or the 'tail' parameter to read only the last N lines of a file. Operates on the file as text regardless of extension. Only works within allowed directories.",
    "inputSchema": {
     "type": "object",
     "properties": {
      "path": {
       "type": "string"
      },
      "tail": {
       "description": "If provided, returns only the last N lines of the file",
       "type": "number"
      },
      "head": {
       "description": "If provided, returns only the first N lines of the file",
       "type": "number"
      }
     },
     "required": [
      "path"
     ],
     "$schema": "http://json-schema.org/draft-07/schema#"
    },
    "outputSchema": {
     "type": "object",
     "properties": {
      "content": {
       "type": "string"
      }
     },
     "required": [
      "content"
     ],
     "$schema": "http://json-schema.org/draft-07/schema#",
     "additionalProperties": false
    },
    "annotations": {
     "readOnlyHint": true,
     "openWorldHint": false
    }
   },
   {
    "name": "read_multiple_files",
    "description": "Read the contents of multiple files simultaneously. This is more efficient than reading files one by one when you need to analyze or compare multiple files. Each file's content is returned with its path as a reference. Failed reads for individual files won't stop the entire operation. Only works within allowed directories.",
    "inputSchema": {
     "type": "object",
     "properties": {
      "paths": {
       "minItems": 1,
       "type": "array",
       "items": {
        "type": "string"
       },
       "description": "Array of file paths to read. Each path must be a string pointing to a valid file within allowed directories."
      }
     },
     "required": [
      "paths"
     ],
     "$schema": "http://json-schema.org/draft-07/schema#"
    },
    "outputSchema": {
     "type": "object",
     "properties": {
      "content": {
       "type": "string"
      }
     },
     "required": [
      "content"
     ],
     "$schema": "http://json-schema.org/draft-07/schema#",
     "additionalProperties": false
    },
    "annotations": {
     "readOnlyHint": true,
     "openWorldHint": false
    }
   },
   {
    "name": "edit_file",
    "description": "Make line-based edits to a text file. Each edit replaces exact line sequences with new content. Returns a git-style diff showing the changes made. Only works within allowed directories.",
    "inputSchema": {
     "type": "object",
     "properties": {
      "path": {
       "type": "string"
      },
      "edits": {
       "type": "array",
       "items": {
        "type": "object",
        "properties": {
         "oldText": {
          "type": "string",
          "description": "Text to search for - must match exactly"
         },
         "newText": {
          "type": "string",
          "description": "Text to replace with"
         }
        },
        "required": [
         "oldText",
         "newText"
        ]
       }
      },
      "dryRun": {
       "default": false,
       "description": "Preview changes using git-style diff format",
       "type": "boolean"
      }
     },
     "required": [
      "path",
      "edits"
     ],
     "$schema": "http://json-schema.org/draft-07/schema#"
    },
    "outputSchema": {
     "type": "object",
     "properties": {
      "content": {
       "type": "string"
      }
     },
     "required": [
      "content"
     ],
     "$schema": "http://json-schema.org/draft-07/schema#",
     "additionalProperties": false
    },
    "annotations": {
     "readOnlyHint": false,
     "destructiveHint": true,
     "idempotentHint": false,
     "openWorldHint": false
    }
   },
   {
    "name": "list_directory_with_sizes",
    "description": "Get a detailed listing of all files and directories in a specified path, including sizes. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is useful for understanding directory structure and finding specific files within a directory. Only works within allowed directories.",
    "inputSchema": {
     "type": "object",
     "properties": {
      "path": {
       "type": "string"
      },
      "sortBy": {
       "default": "name",
       "description": "Sort entries by name or size",
       "type": "string",
       "enum": [
        "name",
        "size"
       ]
      }
     },
     "required": [
      "path"
     ],
     "$schema": "http://json-schema.org/draft-07/schema#"
    },
    "outputSchema": {
     "type": "object",
     "properties": {
      "content": {
       "type": "string"
      }
     },
     "required": [
      "content"
     ],
     "$schema": "http://json-schema.org/draft-07/schema#",
     "additionalProperties": false
    },
    "annotations": {
     "readOnlyHint": true,
     "openWorldHint": false
    }
   },
   {
    "name": "read_media_file",
    "description": "Read a file and return it as a base64-encoded content block with its MIME type. Image and audio files are returned as image/audio content; any other file type is returned as an embedded resource. Only works within allowed directories.",
    "inputSchema": {
     "type": "object",
     "properties": {
      "path": {
       "type": "string"
      }
     },
     "required": [
      "path"
     ],
     "$schema": "http://json-schema.org/draft-07/schema#"
    },
    "outputSchema": {
     "type": "object",
     "properties": {
      "content": {
       "type": "array",
       "items": {
        "anyOf": [
         {
          "type": "object",
          "properties": {
           "type": {
            "type": "string",
            "enum": [
             "image",
             "audio"
            ]
           },
           "data": {
            "type": "string"
           },
           "mimeType": {
            "type": "string"
           }
          },
          "required": [
           "type",
           "data",
           "mimeType"
          ],
          "additionalProperties": false
         },
         {
          "type": "object",
          "properties": {
           "type": {
            "type": "string",
            "const": "resource"
           },
           "resource": {
            "type": "object",
            "properties": {
             "uri": {
              "type": "string"
             },
             "mimeType": {
              "type": "string"
             },
             "blob": {
              "type": "string"
             }
            },
            "required": [
             "uri",
             "blob"
            ],
            "additionalProperties": false
           }
          },
          "required": [
           "type",
           "resource"
          ],
          "additionalProperties": false
         }
        ]
       }
      }
     },
     "required": [
      "content"
     ],
     "$schema": "http://json-schema.org/draft-07/schema#",
     "additionalProperties": false
    },
    "annotations": {
     "readOnlyHint": true,
     "openWorldHint": false
    }
   },
   {
    "name": "sequentialthinking",
    "description": "A detailed tool for dynamic and reflective problem-solving through thoughts.",
    "inputSchema": {
     "type": "object",
     "properties": {
      "thought": {
       "type": "string",
       "description": "Your current thinking step"
      },
      "nextThoughtNeeded": {
       "description": "Whether another thought step is needed",
       "type": "boolean"
      },
      "thoughtNumber": {
       "type": "integer",
       "minimum": 1,
       "maximum": 9007199254740991,
       "description": "Current thought number (numeric value, e.g., 1, 2, 3)"
      },
      "totalThoughts": {
       "type": "integer",
       "minimum": 1,
       "maximum": 9007199254740991,
       "description": "Estimated total thoughts needed (numeric value, e.g., 5, 10)"
      },
      "isRevision": {
       "description": "Whether this revises previous thinking",
       "type": "boolean"
      },
      "revisesThought": {
       "description": "Which thought is being reconsidered",
       "type": "integer",
       "minimum": 1,
       "maximum": 9007199254740991
      },
      "branchFromThought": {
       "description": "Branching point thought number",
       "type": "integer",
       "minimum": 1,
       "maximum": 9007199254740991
      },
      "branchId": {
       "description": "Branch identifier",
       "type": "string"
      },
      "needsMoreThoughts": {
       "description": "If more thoughts are needed",
       "type": "boolean"
      }
     },
     "required": [
      "thought",
      "nextThoughtNeeded",
      "thoughtNumber",
      "totalThoughts"
     ],
     "$schema": "http://json-schema.org/draft-07/schema#"
    },
    "outputSchema": {
     "type": "object",
     "properties": {
      "thoughtNumber": {
       "type": "number"
      },
      "totalThoughts": {
       "type": "number"
      },
      "nextThoughtNeeded": {
       "type": "boolean"
      },
      "branches": {
       "type": "array",
       "items": {
        "type": "string"
       }
      },
      "thoughtHistoryLength": {
       "type": "number"
      }
     },
     "required": [
      "thoughtNumber",
      "totalThoughts",
      "nextThoughtNeeded",
      "branches",
      "thoughtHistoryLength"
     ],
     "$schema": "http://json-schema.org/draft-07/schema#",
     "additionalProperties": false
    },
    "annotations": {
     "readOnlyHint": true,
     "destructiveHint": false,
     "idempotentHint": true,
     "openWorldHint": false
    }
   },
   {
    "name": "get-structured-content",
    "description": "Returns structured content along with an output schema for client data validation",
    "inputSchema": {
     "type": "object",
     "properties": {
      "location": {
       "type": "string",
       "enum": [
        "New York",
        "Chicago",
        "Los Angeles"
       ],
       "description": "Choose city"
      }
     },
     "required": [
      "location"
     ],
     "$schema": "http://json-schema.org/draft-07/schema#"
    },
    "outputSchema": {
     "type": "object",
     "properties": {
      "temperature": {
       "type": "number",
       "description": "Temperature in celsius"
      },
      "conditions": {
       "type": "string",
       "description": "Weather conditions description"
      },
      "humidity": {
       "type": "number",
       "description": "Humidity percentage"
      }
     },
     "required": [
      "temperature",
      "conditions",
      "humidity"
     ],
     "$schema": "http://json-schema.org/draft-07/schema#",
     "additionalProperties": false
    }
   },
   {
    "name": "get-resource-links",
    "description": "Returns up to ten resource links that reference different types of resources",
    "inputSchema": {
     "type": "object",
     "properties": {
      "count": {
       "default": 3,
       "description": "Number of resource links to return (1-10)",
       "type": "number",
       "minimum": 1,
       "maximum": 10
      }
     },
     "$schema": "http://json-schema.org/draft-07/schema#"
    },
    "annotations": {
     "readOnlyHint": true,
     "destructiveHint": false
    }
   },
   {
    "name": "get-annotated-message",
    "description": "Demonstrates how annotations can be used to provide metadata about content.",
    "inputSchema": {
     "type": "object",
     "properties": {
      "messageType": {
       "type": "string",
       "enum": [
        "error",
        "success",
        "debug"
       ],
       "description": "Type of message to demonstrate different annotation patterns"
      },
      "includeImage": {
       "default": false,
       "description": "Whether to include an example image",
       "type": "boolean"
      }
     },
     "required": [
      "messageType"
     ],
     "$schema": "http://json-schema.org/draft-07/schema#"
    }
   },
   {
    "name": "get-sum",
    "description": "Returns the sum of two numbers",
    "inputSchema": {
     "type": "object",
     "properties": {
      "a": {
       "type": "number",
       "description": "First number"
      },
      "b": {
       "type": "number",
       "description": "Second number"
      }
     },
     "required": [
      "a",
      "b"
     ],
     "$schema": "http://json-schema.org/draft-07/schema#"
    }
   },
   {
    "name": "fetch",
    "description": "Fetches a URL from the internet and optionally extracts its contents as markdown.",
    "inputSchema": {
     "description": "Parameters for fetching a URL.",
     "properties": {
      "url": {
       "description": "URL to fetch",
       "format": "uri",
       "minLength": 1,
       "title": "Url",
       "type": "string"
      },
      "max_length": {
       "default": 5000,
       "description": "Maximum number of characters to return.",
       "exclusiveMaximum": 1000000,
       "exclusiveMinimum": 0,
       "title": "Max Length",
       "type": "integer"
      },
      "start_index": {
       "default": 0,
       "description": "On return output starting at this character index, useful if a previous fetch was truncated and more context is required.",
       "minimum": 0,
       "title": "Start Index",
       "type": "integer"
      },
      "raw": {
       "default": false,
       "description": "Get the actual HTML content of the requested page, without simplification.",
       "title": "Raw",
       "type": "boolean"
      }
     },
     "required": [
      "url"
     ],
     "title": "Fetch",
     "type": "object"
    }
   },
   {
    "name": "git_add",
    "description": "Adds file contents to the staging area",
    "inputSchema": {
     "properties": {
      "repo_path": {
       "title": "Repo Path",
       "type": "string"
      },
      "files": {
       "items": {
        "type": "string"
       },
       "title": "Files",
       "type": "array"
      }
     },
     "required": [
      "repo_path",
      "files"
     ],
     "title": "GitAdd",
     "type": "object"
    }
   },
   {
    "name": "git_log",
    "description": "Shows the commit logs",
    "inputSchema": {
     "properties": {
      "repo_path": {
       "title": "Repo Path",
       "type": "string"
      },
      "max_count": {
       "default": 10,
       "title": "Max Count",
       "type": "integer"
      },
      "start_timestamp": {
       "anyOf": [
        {
         "type": "string"
        },
        {
         "type": "null"
        }
       ],
       "default": null,
       "description": "Start timestamp for filtering commits. Accepts: ISO 8601 format (e.g., '2024-01-15T14:30:25'), relative dates (e.g., '2 weeks ago', 'yesterday'), or absolute dates (e.g., '2024-01-15', 'Jan 15 2024')",
       "title": "Start Timestamp"
      },
      "end_timestamp": {
       "anyOf": [
        {
         "type": "string"
        },
        {
         "type": "null"
        }
       ],
       "default": null,
       "description": "End timestamp for filtering commits. Accepts: ISO 8601 format (e.g., '2024-01-15T14:30:25'), relative dates (e.g., '2 weeks ago', 'yesterday'), or absolute dates (e.g., '2024-01-15', 'Jan 15 2024')",
       "title": "End Timestamp"
      }
     },
     "required": [
      "repo_path"
     ],
     "title": "GitLog",
     "type": "object"
    }
   },
   {
    "name": "git_create_branch",
    "description": "Creates a new branch from an optional base branch",
    "inputSchema": {
     "properties": {
      "repo_path": {
       "title": "Repo Path",
       "type": "string"
      },
      "branch_name": {
       "title": "Branch Name",
       "type": "string"
      },
      "base_branch": {
       "anyOf": [
        {
         "type": "string"
        },
        {
         "type": "null"
        }
       ],
       "default": null,
       "title": "Base Branch"
      }
     },
     "required": [
      "repo_path",
      "branch_name"
     ],
     "title": "GitCreateBranch",
     "type": "object"
    }
   },
   {
    "name": "git_branch",
    "description": "List Git branches",
    "inputSchema": {
     "properties": {
      "repo_path": {
       "description": "The path to the Git repository.",
       "title": "Repo Path",
       "type": "string"
      },
      "branch_type": {
       "description": "Whether to list local branches ('local'), remote branches ('remote') or all branches('all').",
       "title": "Branch Type",
       "type": "string"
      },
      "contains": {
       "anyOf": [
        {
         "type": "string"
        },
        {
         "type": "null"
        }
       ],
       "default": null,
       "description": "The commit sha that branch should contain. Do not pass anything to this param if no commit sha is specified",
       "title": "Contains"
      },
      "not_contains": {
       "anyOf": [
        {
         "type": "string"
        },
        {
         "type": "null"
        }
       ],
       "default": null,
       "description": "The commit sha that branch should NOT contain. Do not pass anything to this param if no commit sha is specified",
       "title": "Not Contains"
      }
     },
     "required": [
      "repo_path",
      "branch_type"
     ],
     "title": "GitBranch",
     "type": "object"
    }
   },
   {
    "name": "get_current_time",
    "description": "Get current time in a specific timezone",
    "inputSchema": {
     "type": "object",
     "properties": {
      "timezone": {
       "type": "string",
       "description": "IANA timezone name (e.g., 'America/New_York', 'Europe/London'). Use 'UTC' as local timezone if no timezone provided by the user."
      }
     },
     "required": [
      "timezone"
     ]
    }
   },
   {
    "name": "convert_time",
    "description": "Convert time between timezones",
    "inputSchema": {
     "type": "object",
     "properties": {
      "source_timezone": {
       "type": "string",
       "description": "Source IANA timezone name (e.g., 'America/New_York', 'Europe/London'). Use 'UTC' as local timezone if no source timezone provided by the user."
      },
      "time": {
       "type": "string",
       "description": "Time to convert in 24-hour format (HH:MM)"
      },
      "target_timezone": {
       "type": "string",
       "description": "Target IANA timezone name (e.g., 'Asia/Tokyo', 'America/San_Francisco'). Use 'UTC' as local timezone if no target timezone provided by the user."
      }
     },
     "required": [
      "source_timezone",
      "time",
      "target_timezone"
     ]
    }
   }
  ]
 },
 "GitHub MCP server (real listing)": {
  "tools": [
   {
    "name": "actions_list",
    "description": "Tools for listing GitHub Actions resources.\nUse this tool to list workflows in a repository, or list workflow runs, jobs, and artifacts for a specific workflow or workflow run.\n",
    "inputSchema": {
     "properties": {
      "method": {
       "description": "The action to perform",
       "enum": [
        "list_workflows",
        "list_workflow_runs",
        "list_workflow_jobs",
        "list_workflow_run_artifacts"
       ],
       "type": "string"
      },
      "owner": {
       "description": "Repository owner",
       "type": "string"
      },
      "page": {
       "description": "Page number for pagination (default: 1)",
       "minimum": 1,
       "type": "number"
      },
      "per_page": {
       "description": "Results per page for pagination (default: 30, max: 100)",
       "maximum": 100,
       "minimum": 1,
       "type": "number"
      },
      "repo": {
       "description": "Repository name",
       "type": "string"
      },
      "resource_id": {
       "description": "The unique identifier of the resource. This will vary based on the \"method\" provided, so ensure you provide the correct ID:\n- Do not provide any resource ID for 'list_workflows' method.\n- Provide a workflow ID or workflow file name (e.g. ci.yaml) for 'list_workflow_runs' method, or omit to list all workflow runs in the repository.\n- Provide a workflow run ID for 'list_workflow_jobs' and 'list_workflow_run_artifacts' methods.\n",
       "type": "string"
      },
      "workflow_jobs_filter": {
       "description": "Filters for workflow jobs. **ONLY** used when method is 'list_workflow_jobs'",
       "properties": {
        "filter": {
         "description": "Filters jobs by their completed_at timestamp",
         "enum": [
          "latest",
          "all"
         ],
         "type": "string"
        }
       },
       "type": "object"
      },
      "workflow_runs_filter": {
       "description": "Filters for workflow runs. **ONLY** used when method is 'list_workflow_runs'",
       "properties": {
        "actor": {
         "description": "Filter to a specific GitHub user's workflow runs.",
         "type": "string"
        },
        "branch": {
         "description": "Filter workflow runs to a specific Git branch. Use the name of the branch.",
         "type": "string"
        },
        "event": {
         "description": "Filter workflow runs to a specific event type",
         "enum": [
          "branch_protection_rule",
          "check_run",
          "check_suite",
          "create",
          "delete",
          "deployment",
          "deployment_status",
          "discussion",
          "discussion_comment",
          "fork",
          "gollum",
          "issue_comment",
          "issues",
          "label",
          "merge_group",
          "milestone",
          "page_build",
          "public",
          "pull_request",
          "pull_request_review",
          "pull_request_review_comment",
          "pull_request_target",
          "push",
          "registry_package",
          "release",
          "repository_dispatch",
          "schedule",
          "status",
          "watch",
          "workflow_call",
          "workflow_dispatch",
          "workflow_run"
         ],
         "type": "string"
        },
        "status": {
         "description": "Filter workflow runs to only runs with a specific status",
         "enum": [
          "queued",
          "in_progress",
          "completed",
          "requested",
          "waiting"
         ],
         "type": "string"
        }
       },
       "type": "object"
      }
     },
     "required": [
      "method",
      "owner",
      "repo"
     ],
     "type": "object"
    },
    "annotations": {
     "idempotentHint": false,
     "readOnlyHint": true,
     "title": "List GitHub Actions workflows in a repository"
    }
   },
   {
    "name": "create_pull_request_review",
    "description": "Create a review on a pull request. If event is provided, the review is submitted immediately; otherwise a pending review is created.",
    "inputSchema": {
     "properties": {
      "body": {
       "description": "The review body text (optional)",
       "type": "string"
      },
      "commitID": {
       "description": "The SHA of the commit to review (optional, defaults to latest)",
       "type": "string"
      },
      "event": {
       "description": "The review action to perform (APPROVE, REQUEST_CHANGES, or COMMENT). If omitted, creates a pending review.",
       "enum": [
        "APPROVE",
        "REQUEST_CHANGES",
        "COMMENT"
       ],
       "type": "string"
      },
      "owner": {
       "description": "Repository owner (username or organization)",
       "type": "string",
       "x-mcp-header": "owner"
      },
      "pullNumber": {
       "description": "The pull request number",
       "minimum": 1,
       "type": "number"
      },
      "repo": {
       "description": "Repository name",
       "type": "string",
       "x-mcp-header": "repo"
      }
     },
     "required": [
      "owner",
      "repo",
      "pullNumber"
     ],
     "type": "object"
    },
    "outputSchema": {
     "additionalProperties": false,
     "properties": {
      "message": {
       "type": "string"
      }
     },
     "required": [
      "message"
     ],
     "type": [
      "null",
      "object"
     ]
    },
    "annotations": {
     "destructiveHint": false,
     "idempotentHint": false,
     "openWorldHint": true,
     "readOnlyHint": false,
     "title": "Create Pull Request Review"
    }
   },
   {
    "name": "create_repository",
    "description": "Create a new GitHub repository in your account or specified organization",
    "inputSchema": {
     "properties": {
      "autoInit": {
       "description": "Initialize with README",
       "type": "boolean"
      },
      "description": {
       "description": "Repository description",
       "type": "string"
      },
      "name": {
       "description": "Repository name",
       "type": "string"
      },
      "organization": {
       "description": "Organization to create the repository in (omit to create in your personal account)",
       "type": "string"
      },
      "private": {
       "default": true,
       "description": "Whether the repository should be private. Defaults to true (private) when omitted.",
       "type": "boolean"
      }
     },
     "required": [
      "name"
     ],
     "type": "object"
    },
    "annotations": {
     "idempotentHint": false,
     "readOnlyHint": false,
     "title": "Create repository"
    }
   },
   {
    "name": "get_file_contents",
    "description": "Get the contents of a file or directory from a GitHub repository",
    "inputSchema": {
     "properties": {
      "fields": {
       "description": "Subset of fields to return for each entry when the path is a directory. If omitted, all fields are returned. Ignored when the path is a single file. Use this to reduce response size when listing directories and you only need specific fields, e.g. just 'name' and 'type'.",
       "items": {
        "enum": [
         "type",
         "name",
         "path",
         "size",
         "sha",
         "url",
         "git_url",
         "html_url",
         "download_url"
        ],
        "type": "string"
       },
       "type": "array"
      },
      "owner": {
       "description": "Repository owner (username or organization)",
       "type": "string"
      },
      "path": {
       "default": "/",
       "description": "Path to file/directory",
       "type": "string"
      },
      "ref": {
       "description": "Accepts optional git refs such as `refs/tags/{tag}`, `refs/heads/{branch}` or `refs/pull/{pr_number}/head`",
       "type": "string"
      },
      "repo": {
       "description": "Repository name",
       "type": "string"
      },
      "sha": {
       "description": "Accepts optional commit SHA. If specified, it will be used instead of ref",
       "type": "string"
      }
     },
     "required": [
      "owner",
      "repo"
     ],
     "type": "object"
    },
    "annotations": {
     "idempotentHint": false,
     "readOnlyHint": true,
     "title": "Get file or directory contents"
    }
   },
   {
    "name": "issue_write",
    "description": "Create a new or update an existing issue in a GitHub repository.",
    "inputSchema": {
     "properties": {
      "assignees": {
       "description": "Usernames to assign to this issue",
       "items": {
        "type": "string"
       },
       "type": "array"
      },
      "body": {
       "description": "Issue body content",
       "type": "string"
      },
      "duplicate_of": {
       "description": "Issue number that this issue is a duplicate of. Required when state_reason is 'duplicate'.",
       "type": "number"
      },
      "issue_fields": {
       "description": "Issue field values to set or clear. Each item requires 'field_name' and exactly one of 'value', 'field_option_name', or 'delete: true'.",
       "items": {
        "additionalProperties": false,
        "properties": {
         "delete": {
          "description": "Set to true to clear this field's current value on the issue. When false or omitted, this property is ignored. Cannot be true when 'value' or 'field_option_name' is provided.",
          "type": "boolean"
         },
         "field_name": {
          "description": "Issue field name (case-insensitive). Must match a field returned by list_issue_fields for this repository or its organization.",
          "type": "string"
         },
         "field_option_name": {
          "description": "Option name for single-select fields. Validated against the field's options before the API call. Cannot be combined with 'value' or 'delete: true'.",
          "type": "string"
         },
         "value": {
          "description": "Value to set. Use for text, number, and date fields (date as YYYY-MM-DD). For single-select fields, prefer 'field_option_name' so the option is validated before the API call. Cannot be combined with 'field_option_name' or 'delete: true'.",
          "type": [
           "string",
           "number",
           "boolean"
          ]
         }
        },
        "required": [
         "field_name"
        ],
        "type": "object"
       },
       "type": "array"
      },
      "issue_number": {
       "description": "Issue number to update",
       "type": "number"
      },
      "labels": {
       "description": "Labels to apply to this issue",
       "items": {
        "type": "string"
       },
       "type": "array"
      },
      "method": {
       "description": "Write operation to perform on a single issue.\nOptions are:\n- 'create' - creates a new issue.\n- 'update' - updates an existing issue.\n",
       "enum": [
        "create",
        "update"
       ],
       "type": "string"
      },
      "milestone": {
       "description": "Milestone number",
       "type": "number"
      },
      "owner": {
       "description": "Repository owner",
       "type": "string"
      },
      "repo": {
       "description": "Repository name",
       "type": "string"
      },
      "state": {
       "description": "New state",
       "enum": [
        "open",
        "closed"
       ],
       "type": "string"
      },
      "state_reason": {
       "description": "Reason for the state change. Ignored unless state is changed.",
       "enum": [
        "completed",
        "not_planned",
        "duplicate"
       ],
       "type": "string"
      },
      "title": {
       "description": "Issue title",
       "type": "string"
      },
      "type": {
       "anyOf": [
        {
         "minLength": 1,
         "type": "string"
        },
        {
         "type": "null"
        }
       ],
       "description": "Type of this issue. For updates, pass null to remove the current type. Only use if issue types are enabled for this repository. Use list_issue_types to get valid type values for this repository or its owner organization. If the repository doesn't support issue types, omit this parameter."
      }
     },
     "required": [
      "method",
      "owner",
      "repo"
     ],
     "type": "object"
    },
    "annotations": {
     "idempotentHint": false,
     "readOnlyHint": false,
     "title": "Create or update issue/pull request"
    }
   },
   {
    "name": "projects_write",
    "description": "Create and manage GitHub Projects: create projects, add/update/delete items, bulk-update many items at once, manage views, create status updates, and add iteration fields.",
    "inputSchema": {
     "properties": {
      "body": {
       "description": "The body of the status update (markdown). Used for 'create_project_status_update' method.",
       "type": "string"
      },
      "field_name": {
       "description": "The name of the iteration field (e.g. 'Sprint'). Required for 'create_iteration_field' method.",
       "type": "string"
      },
      "filter": {
       "anyOf": [
        {
         "type": "string"
        },
        {
         "type": "null"
        }
       ],
       "description": "Saved view filter; omit on update to preserve it, or pass null to clear it."
      },
      "issue_number": {
       "description": "The issue number. Required for 'add_project_item' when item_type is 'issue'. Also accepted by 'update_project_item' to resolve the item by issue number (combine with item_owner and item_repo).",
       "type": "number"
      },
      "item_id": {
       "description": "The project item ID. Required for 'delete_project_item'. For 'update_project_item', provide either item_id, or (item_owner + item_repo + issue_number) to resolve the item by issue.",
       "type": "number"
      },
      "item_owner": {
       "description": "The owner (user or organization) of the repository containing the issue or pull request. Required for 'add_project_item' method. Also accepted by 'update_project_item' when resolving the item by issue number.",
       "type": "string"
      },
      "item_repo": {
       "description": "The name of the repository containing the issue or pull request. Required for 'add_project_item' method. Also accepted by 'update_project_item' when resolving the item by issue number.",
       "type": "string"
      },
      "item_type": {
       "description": "The item's type, either issue or pull_request. Required for 'add_project_item' method.",
       "enum": [
        "issue",
        "pull_request"
       ],
       "type": "string"
      },
      "items": {
       "description": "The items to update with the top-level 'updated_field'. Required for 'update_project_items'; prefer it over calling 'update_project_item' in a loop. Each entry must match exactly one reference variant: 'node_id', numeric 'item_id', or 'item_owner' + 'item_repo' + 'issue_number'. Limit: 50 items per call.",
       "items": {
        "oneOf": [
         {
          "additionalProperties": false,
          "properties": {
           "node_id": {
            "description": "The project item's GraphQL node ID, as returned by 'list_project_items' or 'add_project_item'.",
            "type": "string"
           }
          },
          "required": [
           "node_id"
          ],
          "type": "object"
         },
         {
          "additionalProperties": false,
          "properties": {
           "item_id": {
            "description": "The numeric project item ID.",
            "type": "integer"
           }
          },
          "required": [
           "item_id"
          ],
          "type": "object"
         },
         {
          "additionalProperties": false,
          "properties": {
           "issue_number": {
            "description": "Issue number used to resolve the project item.",
            "type": "integer"
           },
           "item_owner": {
            "description": "Owner of the repository containing the issue.",
            "type": "string"
           },
           "item_repo": {
            "description": "Repository containing the issue.",
            "type": "string"
           }
          },
          "required": [
           "item_owner",
           "item_repo",
           "issue_number"
          ],
          "type": "object"
         }
        ],
        "type": "object"
       },
       "type": "array"
      },
      "iteration_duration": {
       "description": "Duration in days for iterations of the field (e.g. 7 for weekly, 14 for bi-weekly). Required for 'create_iteration_field' method.",
       "type": "number"
      },
      "iterations": {
       "description": "Custom iterations for 'create_iteration_field' method. Only set this when you need iterations with varying durations, breaks between them, or specific titles. Otherwise omit it: GitHub auto-creates three iterations of 'iteration_duration' days starting on 'start_date', which is the right choice for most cases.",
       "items": {
        "additionalProperties": false,
        "properties": {
         "duration": {
          "description": "Duration in days",
          "type": "number"
         },
         "start_date": {
          "description": "Start date in YYYY-MM-DD format",
          "type": "string"
         },
         "title": {
          "description": "Iteration title (e.g. 'Sprint 1')",
          "type": "string"
         }
        },
        "required": [
         "title",
         "start_date",
         "duration"
        ],
        "type": "object"
       },
       "type": "array"
      },
      "layout": {
       "description": "View layout; required when creating a view.",
       "enum": [
        "table",
        "board",
        "roadmap"
       ],
       "type": "string"
      },
      "method": {
       "description": "The method to execute",
       "enum": [
        "add_project_item",
        "update_project_item",
        "update_project_items",
        "delete_project_item",
        "create_project_status_update",
        "create_project_view",
        "update_project_view",
        "delete_project_view",
        "create_project",
        "create_iteration_field"
       ],
       "type": "string"
      },
      "name": {
       "description": "View name; required when creating a view.",
       "type": "string"
      },
      "owner": {
       "description": "The project owner (user or organization login). The name is not case sensitive.",
       "type": "string"
      },
      "owner_type": {
       "description": "Owner type (user or org). Required for 'create_project' method. If not provided for other methods, will be automatically detected.",
       "enum": [
        "user",
        "org"
       ],
       "type": "string"
      },
      "project_number": {
       "description": "The project's number. Required for all methods except 'create_project'.",
       "type": "number"
      },
      "pull_request_number": {
       "description": "The pull request number (use when item_type is 'pull_request' for 'add_project_item' method). Provide either issue_number or pull_request_number.",
       "type": "number"
      },
      "start_date": {
       "description": "Start date in YYYY-MM-DD format. Used for 'create_project_status_update' and 'create_iteration_field' methods.",
       "type": "string"
      },
      "status": {
       "description": "The status of the project. Used for 'create_project_status_update' method.",
       "enum": [
        "INACTIVE",
        "ON_TRACK",
        "AT_RISK",
        "OFF_TRACK",
        "COMPLETE"
       ],
       "type": "string"
      },
      "target_date": {
       "description": "The target date of the status update in YYYY-MM-DD format. Used for 'create_project_status_update' method.",
       "type": "string"
      },
      "title": {
       "description": "The project title. Required for 'create_project' method.",
       "type": "string"
      },
      "updated_field": {
       "description": "The field/value to apply, using {\"id\": 123, \"value\": ...} or {\"name\": \"Status\", \"value\": ...}; null clears the field. Required for 'update_project_item' and 'update_project_items', where one top-level field/value applies to every item in a batch. For 'update_project_item' SINGLE_SELECT fields, the name form accepts option names; the ID form expects an option ID.",
       "oneOf": [
        {
         "additionalProperties": false,
         "properties": {
          "id": {
           "description": "The numeric project field ID.",
           "type": "integer"
          },
          "value": {
           "description": "The value to apply. Any JSON value is accepted; use null to clear the field."
          }
         },
         "required": [
          "id",
          "value"
         ],
         "type": "object"
        },
        {
         "additionalProperties": false,
         "properties": {
          "name": {
           "description": "The project field name. Matching is case-insensitive.",
           "type": "string"
          },
          "value": {
           "description": "The value to apply. Any JSON value is accepted; use null to clear the field."
          }
         },
         "required": [
          "name",
          "value"
         ],
         "type": "object"
        }
       ],
       "type": "object"
      },
      "view_id": {
       "description": "Project view node ID for update or delete; must belong to owner/project_number.",
       "type": "string"
      },
      "visible_field_names": {
       "description": "Ordered project field names to show on create or replace on update; omit on update to preserve, or pass [] to reset. Mutually exclusive with visible_fields. Roadmap accepts only [].",
       "items": {
        "type": "string"
       },
       "type": "array"
      },
      "visible_fields": {
       "description": "Ordered project field database IDs to show on create or replace on update; omit on update to preserve, or pass [] to reset. Mutually exclusive with visible_field_names. Roadmap accepts only [].",
       "items": {
        "type": "string"
       },
       "type": "array"
      }
     },
     "required": [
      "method",
      "owner"
     ],
     "type": "object"
    },
    "annotations": {
     "destructiveHint": true,
     "idempotentHint": false,
     "readOnlyHint": false,
     "title": "Manage GitHub Projects"
    }
   },
   {
    "name": "push_files",
    "description": "Push multiple files to a GitHub repository in a single commit",
    "inputSchema": {
     "properties": {
      "branch": {
       "description": "Branch to push to",
       "type": "string"
      },
      "files": {
       "description": "Array of file objects to push, each object with path (string) and content (string)",
       "items": {
        "additionalProperties": false,
        "properties": {
         "content": {
          "description": "file content",
          "type": "string"
         },
         "path": {
          "description": "path to the file",
          "type": "string"
         }
        },
        "required": [
         "path",
         "content"
        ],
        "type": "object"
       },
       "type": "array"
      },
      "message": {
       "description": "Commit message",
       "type": "string"
      },
      "owner": {
       "description": "Repository owner",
       "type": "string"
      },
      "repo": {
       "description": "Repository name",
       "type": "string"
      }
     },
     "required": [
      "owner",
      "repo",
      "branch",
      "files",
      "message"
     ],
     "type": "object"
    },
    "annotations": {
     "idempotentHint": false,
     "readOnlyHint": false,
     "title": "Push files to repository"
    }
   },
   {
    "name": "set_issue_fields",
    "description": "Set issue field values for an issue. Fields are organization-level custom fields (text, number, date, or single select). Use this to create or update field values on an issue.",
    "inputSchema": {
     "properties": {
      "fields": {
       "description": "Array of issue field values to set. Each element must have a 'field_id' (string, the GraphQL node ID of the field) and exactly one value field: 'text_value' for text fields, 'number_value' for number fields, 'date_value' (ISO 8601 date string) for date fields, or 'single_select_option_id' (the GraphQL node ID of the option) for single select fields. Set 'delete' to true to remove a field value.",
       "items": {
        "properties": {
         "confidence": {
          "description": "How confident you are in this choice. Use 'HIGH' for clear signal or explicit user request, 'MEDIUM' for reasonable inference with some ambiguity, 'LOW' for best guess with limited signal.",
          "enum": [
           "LOW",
           "MEDIUM",
           "HIGH"
          ],
          "type": "string"
         },
         "date_value": {
          "description": "The value to set for a date field (ISO 8601 date string)",
          "type": "string"
         },
         "delete": {
          "description": "Set to true to delete this field value",
          "type": "boolean"
         },
         "field_id": {
          "description": "The GraphQL node ID of the issue field",
          "type": "string"
         },
         "is_suggestion": {
          "description": "If true, this field value is sent to the API as a suggestion (suggest:true) rather than an applied value. Whether the value is applied or recorded as a proposal is determined by the API.",
          "type": "boolean"
         },
         "number_value": {
          "description": "The value to set for a number field",
          "type": "number"
         },
         "rationale": {
          "description": "One concise sentence explaining what specifically about the issue led you to choose this field value. State the concrete signal (e.g. 'Reports a crash when saving' \u2192 high priority).",
          "maxLength": 280,
          "type": "string"
         },
         "single_select_option_id": {
          "description": "The GraphQL node ID of the option to set for a single select field",
          "type": "string"
         },
         "text_value": {
          "description": "The value to set for a text field",
          "type": "string"
         }
        },
        "required": [
         "field_id"
        ],
        "type": "object"
       },
       "minItems": 1,
       "type": "array"
      },
      "issue_number": {
       "description": "The issue number to update",
       "minimum": 1,
       "type": "number"
      },
      "owner": {
       "description": "Repository owner (username or organization)",
       "type": "string"
      },
      "repo": {
       "description": "Repository name",
       "type": "string"
      }
     },
     "required": [
      "owner",
      "repo",
      "issue_number",
      "fields"
     ],
     "type": "object"
    },
    "annotations": {
     "destructiveHint": false,
     "idempotentHint": false,
     "openWorldHint": true,
     "readOnlyHint": false,
     "title": "Set Issue Fields"
    }
   },
   {
    "name": "update_issue_assignees",
    "description": "Update the assignees of an existing issue. This replaces the current assignees with the provided list. When setting values, include a confidence level (LOW, MEDIUM, or HIGH) reflecting how certain you are about the choice.",
    "inputSchema": {
     "properties": {
      "assignees": {
       "description": "GitHub usernames to assign to this issue.",
       "items": {
        "oneOf": [
         {
          "description": "GitHub username",
          "type": "string"
         },
         {
          "properties": {
           "confidence": {
            "description": "How confident you are in this choice. Use 'HIGH' for clear signal or explicit user request, 'MEDIUM' for reasonable inference with some ambiguity, 'LOW' for best guess with limited signal.",
            "enum": [
             "LOW",
             "MEDIUM",
             "HIGH"
            ],
            "type": "string"
           },
           "is_suggestion": {
            "description": "If true, this assignee is sent to the API as a suggestion (suggest:true) rather than an applied assignee. Whether the assignee is applied or recorded as a proposal is determined by the API.",
            "type": "boolean"
           },
           "login": {
            "description": "GitHub username",
            "type": "string"
           },
           "rationale": {
            "description": "One concise sentence explaining what specifically about the issue led you to choose this assignee. State the concrete signal (e.g. 'Authored the file the crash originates in').",
            "maxLength": 280,
            "type": "string"
           }
          },
          "required": [
           "login"
          ],
          "type": "object"
         }
        ]
       },
       "type": "array"
      },
      "issue_number": {
       "description": "The issue number to update",
       "minimum": 1,
       "type": "number"
      },
      "owner": {
       "description": "Repository owner (username or organization)",
       "type": "string"
      },
      "repo": {
       "description": "Repository name",
       "type": "string"
      }
     },
     "required": [
      "owner",
      "repo",
      "issue_number",
      "assignees"
     ],
     "type": "object"
    },
    "annotations": {
     "destructiveHint": false,
     "idempotentHint": false,
     "openWorldHint": true,
     "readOnlyHint": false,
     "title": "Update Issue Assignees"
    }
   },
   {
    "name": "update_issue_labels",
    "description": "Update the labels of an existing issue. This replaces the current labels with the provided list. When setting values, include a confidence level (LOW, MEDIUM, or HIGH) reflecting how certain you are about the choice.",
    "inputSchema": {
     "properties": {
      "issue_number": {
       "description": "The issue number to update",
       "minimum": 1,
       "type": "number"
      },
      "labels": {
       "description": "Labels to apply to this issue.",
       "items": {
        "oneOf": [
         {
          "description": "Label name",
          "type": "string"
         },
         {
          "properties": {
           "confidence": {
            "description": "How confident you are in this choice. Use 'HIGH' for clear signal or explicit user request, 'MEDIUM' for reasonable inference with some ambiguity, 'LOW' for best guess with limited signal.",
            "enum": [
             "LOW",
             "MEDIUM",
             "HIGH"
            ],
            "type": "string"
           },
           "is_suggestion": {
            "description": "If true, this label is sent to the API as a suggestion (suggest:true) rather than an applied label. Whether the label is applied or recorded as a proposal is determined by the API.",
            "type": "boolean"
           },
           "name": {
            "description": "Label name",
            "type": "string"
           },
           "rationale": {
            "description": "One concise sentence explaining what specifically about the issue led you to choose this label. State the concrete signal (e.g. 'Reports a crash when saving' \u2192 bug).",
            "maxLength": 280,
            "type": "string"
           }
          },
          "required": [
           "name"
          ],
          "type": "object"
         }
        ]
       },
       "type": "array"
      },
      "owner": {
       "description": "Repository owner (username or organization)",
       "type": "string"
      },
      "repo": {
       "description": "Repository name",
       "type": "string"
      }
     },
     "required": [
      "owner",
      "repo",
      "issue_number",
      "labels"
     ],
     "type": "object"
    },
    "annotations": {
     "destructiveHint": false,
     "idempotentHint": false,
     "openWorldHint": true,
     "readOnlyHint": false,
     "title": "Update Issue Labels"
    }
   }
  ]
 },
 "small clean set": {
  "tools": [
   {
    "name": "get_weather",
    "description": "Current weather for a city",
    "inputSchema": {
     "type": "object",
     "properties": {
      "city": {
       "type": "string"
      },
      "unit": {
       "type": "string",
       "enum": [
        "c",
        "f"
       ]
      }
     },
     "required": [
      "city",
      "unit"
     ],
     "additionalProperties": false
    }
   },
   {
    "name": "add_note",
    "description": "Add a note",
    "inputSchema": {
     "type": "object",
     "properties": {
      "text": {
       "type": "string"
      }
     },
     "required": [
      "text"
     ],
     "additionalProperties": false
    }
   }
  ]
 },
 "recursive schema, format: uri, open map": {
  "tools": [
   {
    "name": "save_tree",
    "description": "Save a category tree",
    "inputSchema": {
     "type": "object",
     "properties": {
      "root": {
       "$ref": "#/$defs/node"
      }
     },
     "required": [
      "root"
     ],
     "$defs": {
      "node": {
       "type": "object",
       "properties": {
        "name": {
         "type": "string"
        },
        "children": {
         "type": "array",
         "items": {
          "$ref": "#/$defs/node"
         }
        }
       },
       "required": [
        "name",
        "children"
       ],
       "additionalProperties": false
      }
     },
     "additionalProperties": false
    }
   },
   {
    "name": "fetch_page",
    "description": "Fetch a web page",
    "inputSchema": {
     "type": "object",
     "properties": {
      "url": {
       "type": "string",
       "format": "uri"
      },
      "max_length": {
       "type": "integer",
       "minimum": 1
      }
     },
     "required": [
      "url"
     ]
    }
   },
   {
    "name": "tag",
    "description": "Tag items",
    "inputSchema": {
     "type": "object",
     "properties": {
      "tags": {
       "type": "object",
       "additionalProperties": {
        "type": "string"
       }
      }
     }
    }
   }
  ]
 }
};
